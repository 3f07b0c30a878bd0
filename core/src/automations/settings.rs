//! An automation's form and its settings after the rules of A §5 (B §9's defaults), apart from the runs so that
//! the store and the runs both build on them.

use crate::platform::invalid::Invalid;
use serde::Deserialize;

/// New automations (B §9): 25 miles, 10 a day, active.
pub const DEFAULT_RADIUS: i32 = 25;
pub const DEFAULT_PER_DAY: i32 = 10;

/// The automation form (B §3, §7 `POST /api/automations`); every field optional so the rules name what is missing.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutomationForm {
    pub campaign_name: Option<String>,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    pub radius: Option<i32>,
    pub max_businesses_per_day: Option<i32>,
    pub email_template_id: Option<i64>,
    /// 1 to 1000; none: no total.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i32>)]
    pub max_total_emails: Option<Option<i32>>,
    /// 1 to 10080; none: no end.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i32>)]
    pub campaign_duration_minutes: Option<Option<i32>>,
    pub is_active: Option<bool>,
    /// The senders its emails go from (its campaign's pool; at least one); none: the default sender. The API
    /// checks each is the user's.
    pub email_config_ids: Option<Vec<i64>>,
}

/// A field that may be sent as null: absent is `None`, null is `Some(None)`.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// An automation's settings after the rules of A §5.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub campaign_name: String,
    pub business_type: String,
    pub geographic_area: String,
    pub radius: i32,
    pub max_businesses_per_day: i32,
    pub email_template_id: i64,
    pub max_total_emails: Option<i32>,
    pub campaign_duration_minutes: Option<i32>,
    pub is_active: bool,
}

impl AutomationForm {
    /// The form over `base` (a stored automation when editing, else the defaults), first failure first, in A §5's
    /// words.
    pub fn apply(&self, base: Option<&Settings>) -> Result<Settings, Invalid> {
        let text = |value: &Option<String>, stored: Option<&String>, message: &str| {
            value
                .as_ref()
                .or(stored)
                .map(|text| text.trim().to_string())
                .filter(|text| !text.is_empty())
                .ok_or_else(|| message.to_string())
        };
        let settings = Settings {
            campaign_name: text(
                &self.campaign_name,
                base.map(|b| &b.campaign_name),
                "Campaign name is required",
            )?,
            business_type: text(
                &self.business_type,
                base.map(|b| &b.business_type),
                "Business type is required",
            )?,
            geographic_area: text(
                &self.geographic_area,
                base.map(|b| &b.geographic_area),
                "Geographic area is required",
            )?,
            radius: self
                .radius
                .or(base.map(|b| b.radius))
                .unwrap_or(DEFAULT_RADIUS),
            max_businesses_per_day: self
                .max_businesses_per_day
                .or(base.map(|b| b.max_businesses_per_day))
                .unwrap_or(DEFAULT_PER_DAY),
            email_template_id: self
                .email_template_id
                .or(base.map(|b| b.email_template_id))
                .ok_or("Please select an email template")?,
            max_total_emails: self
                .max_total_emails
                .unwrap_or(base.and_then(|b| b.max_total_emails)),
            campaign_duration_minutes: self
                .campaign_duration_minutes
                .unwrap_or(base.and_then(|b| b.campaign_duration_minutes)),
            is_active: self.is_active.or(base.map(|b| b.is_active)).unwrap_or(true),
        };
        if !(1..=100).contains(&settings.radius) {
            return Err("Search radius must be between 1 and 100 miles".into());
        }
        if !(1..=50).contains(&settings.max_businesses_per_day) {
            return Err("Businesses a day must be between 1 and 50".into());
        }
        if settings
            .max_total_emails
            .is_some_and(|total| !(1..=1000).contains(&total))
        {
            return Err("Total emails must be between 1 and 1000".into());
        }
        if settings
            .campaign_duration_minutes
            .is_some_and(|minutes| !(1..=10080).contains(&minutes))
        {
            return Err("Duration must be between 1 and 10080 minutes".into());
        }
        Ok(settings)
    }
}
