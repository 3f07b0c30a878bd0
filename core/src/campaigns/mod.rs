//! Campaigns: their statuses (A §4, B §3), the stored row, and how each `PUT` body variant changes it.

pub mod ai_settings;
pub mod education;
pub mod personalise;
pub mod rates;
pub mod store;
pub mod templates;
pub mod variants;

use serde::{Deserialize, Serialize};

use self::ai_settings::AiSettings;
use crate::platform::clock::Timestamp;
use crate::platform::window::{SendingWindowView, WindowColumns, WindowError};

crate::capability_store!(
    /// The campaigns capability's reads and writes: `db.campaigns()`.
    CampaignsStore,
    campaigns
);

crate::text_enum! {
    /// Every status a campaign can have, in the builder's order (A §4; B §3 adds archived).
    pub enum CampaignStatus ("campaign status") {
        Draft = "draft",
        Searching = "searching",
        BusinessesSelected = "businesses_selected",
        TemplateSelected = "template_selected",
        Active = "active",
        Paused = "paused",
        Completed = "completed",
        Archived = "archived",
    }
}

impl CampaignStatus {
    /// The builder's steps (A §4): a campaign being set up.
    pub fn is_setup(self) -> bool {
        matches!(
            self,
            CampaignStatus::Draft
                | CampaignStatus::Searching
                | CampaignStatus::BusinessesSelected
                | CampaignStatus::TemplateSelected
        )
    }

    /// The status a builder request for `requested` leaves (`queued`: the campaign has messages waiting to be
    /// sent). Between setup steps the user moves freely; a campaign that was launched or archived, or has messages
    /// waiting, keeps its status, so a builder step never turns a running campaign back into a draft. Launching,
    /// pausing and resuming have their own paths; archiving needs a campaign that is not sending.
    pub fn after_builder_step(
        self,
        requested: CampaignStatus,
        queued: bool,
    ) -> Result<CampaignStatus, CampaignError> {
        match requested {
            CampaignStatus::Active | CampaignStatus::Paused | CampaignStatus::Completed => {
                Err(CampaignError::NotABuilderStep(requested))
            }
            CampaignStatus::Archived if queued || self == CampaignStatus::Active => {
                Err(CampaignError::StillSending)
            }
            CampaignStatus::Archived => Ok(requested),
            _ if self.is_setup() && !queued => Ok(requested),
            _ => Ok(self),
        }
    }
}

/// New drafts search 25 miles around the area for at most 50 businesses (A §7).
pub const DEFAULT_RADIUS: i32 = 25;
pub const DEFAULT_MAX_RESULTS: i32 = 50;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CampaignRow {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub status: CampaignStatus,
    pub category: String,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    pub radius: i32,
    pub max_results: i32,
    pub business_ids: String,
    pub ai_education_text: Option<String>,
    pub email_from_name: Option<String>,
    pub email_from_address: Option<String>,
    /// The builder's furthest step (1 to 6), its last search, and the chosen template and sender.
    pub builder_step: i32,
    pub search_id: Option<i64>,
    pub template_id: Option<i64>,
    pub email_config_id: Option<i64>,
    /// Where replies go (none: the sender's reply-to address, else the user's own email).
    pub reply_to: Option<String>,
    #[sqlx(flatten)]
    pub ai_settings: AiSettings,
    /// When it sends (issue 19).
    #[sqlx(flatten)]
    pub window: WindowColumns,
    /// Its emails carry the open pixel (issue 33.12).
    pub track_opens: bool,
    /// Its links go through the click-tracking redirect (issue 81).
    pub track_clicks: bool,
    /// Its emails are plain text alone: no HTML part, no pixel (issue 81).
    pub plain_text: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub emails_sent: i64,
}

/// A file of AI education, with the text extracted from it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EducationFile {
    pub name: String,
    pub size_bytes: i64,
    pub extracted_text: String,
}

/// The campaign as the API answers (A §3 Campaign).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignView {
    pub id: i64,
    pub name: String,
    pub status: CampaignStatus,
    pub created_at: Timestamp,
    pub emails_sent: i64,
    pub category: String,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    pub radius: i32,
    pub max_results: i32,
    pub business_ids: Vec<i64>,
    pub ai_education_text: Option<String>,
    pub ai_education_files: Vec<String>,
    pub email_from_name: Option<String>,
    pub email_from_address: Option<String>,
    /// The furthest builder step the user reached (1 to 6): the builder resumes there.
    pub builder_step: i32,
    /// The campaign's last search, whose results the builder shows again.
    pub search_id: Option<i64>,
    pub template_id: Option<i64>,
    /// The sender chosen in step 5 (the first of its pool); none means the default sender, else the local outbox.
    pub email_config_id: Option<i64>,
    /// The senders its first emails go from, in the user's order: each email goes from the one with the most room
    /// left when it is sent. Empty: the default sender, else the local outbox.
    pub email_config_ids: Vec<i64>,
    /// Where replies go; none: the sender's reply-to address, else the user's own email.
    pub reply_to: Option<String>,
    pub ai_settings: AiSettings,
    /// The days and hours it sends, in each recipient's local time.
    pub sending_window: SendingWindowView,
    /// Its emails carry the open pixel (never in plain text); without it opens go uncounted, clicks and replies
    /// still count. New campaigns start without it.
    pub track_opens: bool,
    /// Its links go through the click-tracking redirect (in plain text, each address is rewritten). New campaigns
    /// start without it.
    pub track_clicks: bool,
    /// Its emails are plain text alone: no HTML part, no pixel. New campaigns start with it.
    pub plain_text: bool,
}

impl CampaignRow {
    pub fn business_id_list(&self) -> Vec<i64> {
        serde_json::from_str(&self.business_ids).unwrap_or_default()
    }

    pub fn view(&self, files: &[EducationFile]) -> CampaignView {
        CampaignView {
            id: self.id,
            name: self.name.clone(),
            status: self.status,
            created_at: Timestamp(self.created_at),
            emails_sent: self.emails_sent,
            category: self.category.clone(),
            business_type: self.business_type.clone(),
            geographic_area: self.geographic_area.clone(),
            radius: self.radius,
            max_results: self.max_results,
            business_ids: self.business_id_list(),
            ai_education_text: self.ai_education_text.clone(),
            ai_education_files: files.iter().map(|file| file.name.clone()).collect(),
            email_from_name: self.email_from_name.clone(),
            email_from_address: self.email_from_address.clone(),
            builder_step: self.builder_step,
            search_id: self.search_id,
            template_id: self.template_id,
            email_config_id: self.email_config_id,
            email_config_ids: self.email_config_id.into_iter().collect(),
            reply_to: self.reply_to.clone(),
            ai_settings: self.ai_settings,
            sending_window: self.window.window().view(),
            track_opens: self.track_opens,
            track_clicks: self.track_clicks,
            plain_text: self.plain_text,
        }
    }
}

/// Any of the `PUT /api/campaigns/{id}` bodies (A §7): only the fields present change.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CampaignPatch {
    pub name: Option<String>,
    pub status: Option<String>,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    pub radius: Option<i32>,
    pub max_results: Option<i32>,
    pub business_ids: Option<Vec<i64>>,
    pub ai_education_text: Option<String>,
    /// The names of the uploaded files to keep; others are removed.
    pub ai_education_files: Option<Vec<String>>,
    pub email_from_name: Option<String>,
    pub email_from_address: Option<String>,
    /// The furthest builder step reached (1 to 6); a smaller one leaves it where it is.
    pub builder_step: Option<i32>,
    /// The last search (null: none); the API checks it is the user's.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>)]
    pub search_id: Option<Option<i64>>,
    /// The chosen template (null: none); the API checks it is the user's.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>)]
    pub template_id: Option<Option<i64>>,
    /// The chosen sender (null: the default sender, else the outbox); the API checks it is the user's.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>)]
    pub email_config_id: Option<Option<i64>>,
    /// The campaign's senders, in order (at least one); the API checks each is the user's.
    pub email_config_ids: Option<Vec<i64>>,
    /// Where replies go (empty: the sender's reply-to address, else the user's own email).
    pub reply_to: Option<String>,
    /// The campaign's AI settings, all of them.
    pub ai_settings: Option<AiSettings>,
    /// When it sends: days, hours and its own time zone, all of them.
    pub sending_window: Option<SendingWindowView>,
    /// Whether its emails carry the open pixel.
    pub track_opens: Option<bool>,
    /// Whether its links go through the click-tracking redirect.
    pub track_clicks: Option<bool>,
    /// Whether its emails are plain text alone.
    pub plain_text: Option<bool>,
}

/// A field that may be sent as null: absent is `None`, null is `Some(None)`.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Why a campaign change is refused, in the spec's words where it has them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CampaignError {
    #[error("Campaign name is required")]
    NameRequired,
    #[error("Unknown campaign status: {0}")]
    UnknownStatus(String),
    #[error("A campaign becomes {0} by launching, pausing or resuming it, not by editing it")]
    NotABuilderStep(CampaignStatus),
    #[error("This campaign is still sending; pause it before archiving it")]
    StillSending,
    #[error("The builder has six steps")]
    BuilderStep,
    #[error(
        "This campaign's queued emails use its template: stop the campaign, or make a new one, to send another"
    )]
    TemplateLocked,
    #[error("Search radius must be between 1 and 100 miles")]
    Radius,
    #[error("Max results must be between 1 and 200")]
    MaxResults,
    #[error("Please enter a valid email address")]
    FromAddress,
    #[error(transparent)]
    Window(#[from] WindowError),
    #[error("{0}")]
    AiSettings(String),
}

impl CampaignPatch {
    /// Applies the patch to a stored campaign, validating each present field.
    /// Changes `row` as this body asks (`queued`: the campaign has messages waiting to be sent, which keeps its
    /// status; see `CampaignStatus::after_builder_step`).
    pub fn apply(&self, row: &mut CampaignRow, queued: bool) -> Result<(), CampaignError> {
        if let Some(name) = &self.name {
            row.name = valid_name(name)?;
        }
        if let Some(status) = &self.status {
            let requested: CampaignStatus = status
                .parse()
                .map_err(|_| CampaignError::UnknownStatus(status.clone()))?;
            row.status = row.status.after_builder_step(requested, queued)?;
        }
        if let Some(business_type) = &self.business_type {
            row.business_type =
                Some(business_type.trim().to_string()).filter(|text| !text.is_empty());
        }
        if let Some(area) = &self.geographic_area {
            row.geographic_area = Some(area.trim().to_string()).filter(|text| !text.is_empty());
        }
        if let Some(radius) = self.radius {
            row.radius = valid_radius(radius)?;
        }
        if let Some(max_results) = self.max_results {
            row.max_results = valid_max_results(max_results)?;
        }
        if let Some(ids) = &self.business_ids {
            row.business_ids = serde_json::to_string(&crate::platform::limits::distinct(ids))
                .expect("a list of numbers serialises");
        }
        if let Some(text) = &self.ai_education_text {
            row.ai_education_text = Some(text.trim().to_string()).filter(|text| !text.is_empty());
        }
        if let Some(name) = &self.email_from_name {
            row.email_from_name = Some(name.trim().to_string()).filter(|text| !text.is_empty());
        }
        if let Some(step) = self.builder_step {
            if !(1..=6).contains(&step) {
                return Err(CampaignError::BuilderStep);
            }
            row.builder_step = row.builder_step.max(step);
        }
        if let Some(search_id) = self.search_id {
            row.search_id = search_id;
        }
        if let Some(template_id) = self.template_id {
            // Queued mail keeps the template it was written with: the campaign must go on naming that one.
            if queued && template_id != row.template_id {
                return Err(CampaignError::TemplateLocked);
            }
            row.template_id = template_id;
        }
        if let Some(config_id) = self.email_config_id {
            row.email_config_id = config_id;
        }
        if let Some(ids) = &self.email_config_ids {
            row.email_config_id = ids.first().copied();
        }
        if let Some(address) = &self.email_from_address {
            row.email_from_address = valid_optional_email(address)?;
        }
        if let Some(address) = &self.reply_to {
            row.reply_to = valid_optional_email(address)?;
        }
        if let Some(settings) = self.ai_settings {
            settings
                .validate()
                .map_err(|invalid| CampaignError::AiSettings(invalid.0))?;
            row.ai_settings = settings;
        }
        if let Some(window) = &self.sending_window {
            row.window = window.parse()?.columns();
        }
        if let Some(track) = self.track_opens {
            row.track_opens = track;
        }
        if let Some(track) = self.track_clicks {
            row.track_clicks = track;
        }
        if let Some(plain) = self.plain_text {
            row.plain_text = plain;
        }
        Ok(())
    }
}

/// An address that may be left empty (none), else a valid one.
fn valid_optional_email(address: &str) -> Result<Option<String>, CampaignError> {
    let address = address.trim();
    if address.is_empty() {
        Ok(None)
    } else if crate::accounts::is_valid_email(address) {
        Ok(Some(address.to_string()))
    } else {
        Err(CampaignError::FromAddress)
    }
}

/// At least one character after trimming (A §5).
pub fn valid_name(name: &str) -> Result<String, CampaignError> {
    let name = name.trim();
    if name.is_empty() {
        Err(CampaignError::NameRequired)
    } else {
        Ok(name.to_string())
    }
}

pub fn valid_radius(radius: i32) -> Result<i32, CampaignError> {
    if (1..=100).contains(&radius) {
        Ok(radius)
    } else {
        Err(CampaignError::Radius)
    }
}

pub fn valid_max_results(max_results: i32) -> Result<i32, CampaignError> {
    if (1..=200).contains(&max_results) {
        Ok(max_results)
    } else {
        Err(CampaignError::MaxResults)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> CampaignRow {
        CampaignRow {
            id: 1,
            user_id: 1,
            name: "Cafés".into(),
            status: CampaignStatus::Draft,
            category: "General".into(),
            business_type: None,
            geographic_area: None,
            radius: 25,
            max_results: 50,
            business_ids: "[]".into(),
            ai_education_text: None,
            email_from_name: None,
            email_from_address: None,
            builder_step: 1,
            search_id: None,
            template_id: None,
            email_config_id: None,
            reply_to: None,
            ai_settings: AiSettings::default(),
            window: WindowColumns::default(),
            track_opens: true,
            track_clicks: true,
            plain_text: false,
            created_at: 0,
            updated_at: 0,
            emails_sent: 0,
        }
    }

    #[test]
    fn patches_change_only_what_they_carry() {
        let mut campaign = row();
        let patch = CampaignPatch {
            business_ids: Some(vec![3, 4]),
            status: Some("businesses_selected".into()),
            ..Default::default()
        };
        patch.apply(&mut campaign, false).unwrap();
        assert_eq!(
            (
                campaign.business_id_list(),
                campaign.status.as_str(),
                campaign.name.as_str()
            ),
            (vec![3, 4], "businesses_selected", "Cafés")
        );
    }

    #[test]
    fn builder_steps_move_a_campaign_being_set_up_and_never_one_that_has_run() {
        use CampaignStatus::*;
        let setup = [Draft, Searching, BusinessesSelected, TemplateSelected];
        let run = [Active, Paused, Completed, Archived];
        for from in CampaignStatus::ALL.iter().copied() {
            for queued in [false, true] {
                for to in setup {
                    // Between setup steps the user moves freely (a new search after a template was chosen); a
                    // campaign that was launched or archived, or has messages waiting, keeps its status.
                    let expected = if setup.contains(&from) && !queued {
                        to
                    } else {
                        from
                    };
                    assert_eq!(
                        from.after_builder_step(to, queued),
                        Ok(expected),
                        "{from} -> {to}, queued {queued}"
                    );
                }
                for to in [Active, Paused, Completed] {
                    // Only launching, pausing and resuming move a campaign there, never a builder step.
                    assert_eq!(
                        from.after_builder_step(to, queued),
                        Err(CampaignError::NotABuilderStep(to)),
                        "{from} -> {to}"
                    );
                }
                // Archiving hides a campaign that is not sending.
                let archived = from.after_builder_step(Archived, queued);
                if queued || from == Active {
                    assert_eq!(
                        archived,
                        Err(CampaignError::StillSending),
                        "{from} -> archived"
                    );
                } else {
                    assert_eq!(archived, Ok(Archived), "{from} -> archived");
                }
            }
        }
        assert_eq!(setup.len() + run.len(), CampaignStatus::ALL.len());
    }

    #[test]
    fn invalid_fields_are_refused_with_the_spec_words() {
        let cases = [
            (
                CampaignPatch {
                    name: Some("   ".into()),
                    ..Default::default()
                },
                "Campaign name is required",
            ),
            (
                CampaignPatch {
                    status: Some("launched".into()),
                    ..Default::default()
                },
                "Unknown campaign status: launched",
            ),
            (
                CampaignPatch {
                    radius: Some(0),
                    ..Default::default()
                },
                "Search radius must be between 1 and 100 miles",
            ),
            (
                CampaignPatch {
                    max_results: Some(201),
                    ..Default::default()
                },
                "Max results must be between 1 and 200",
            ),
            (
                CampaignPatch {
                    email_from_address: Some("nope".into()),
                    ..Default::default()
                },
                "Please enter a valid email address",
            ),
            (
                CampaignPatch {
                    reply_to: Some("replies@".into()),
                    ..Default::default()
                },
                "Please enter a valid email address",
            ),
        ];
        for (patch, message) in cases {
            assert_eq!(
                patch.apply(&mut row(), false).unwrap_err().to_string(),
                message
            );
        }
    }
}
