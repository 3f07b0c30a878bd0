//! The automation test (B §2.6, §5, §9): 1 to 5 emails of the automation's template, personalised for businesses it
//! would pick (or made-up samples named as such when it has none), for the test address only, never a prospect.
//! With an automation, the form's auto-reply and branding fields are saved as its campaign's settings.

use serde::Deserialize;

use super::store::AutomationRow;
use crate::Context;
use crate::accounts::{is_valid_email, normalize_email};
use crate::campaigns::ai_settings::{CertaintyThreshold, HumanApproval, ReplyTiming};
use crate::campaigns::personalise::{Recipient, render, render_html};
use crate::platform::db::{StoreError, StoreResult};
use crate::platform::invalid::Invalid;
use crate::platform::text::filled;
use crate::sending::launch::TestMessage;

/// B §3 Automation test form.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AutomationTest {
    pub test_email: String,
    /// 1 to 5 (default 1).
    pub quantity: Option<i32>,
    pub automation_id: Option<i64>,
    pub email_template_id: Option<i64>,
    /// Saved as the automation's campaign AI settings (with an automation).
    pub auto_reply_enabled: Option<bool>,
    /// 0 to 1 (default 0.85).
    pub confidence_threshold: Option<f64>,
    /// 0 to 1440.
    pub auto_reply_delay_minutes: Option<i32>,
    pub require_human_approval: Option<bool>,
    /// 1 to 100 (default 20).
    pub auto_reply_max_per_day: Option<i32>,
    /// Branding of the automation's emails (saved with its campaign): the sender name and where replies go.
    pub from_name: Option<String>,
    pub from_email: Option<String>,
    pub reply_to_email: Option<String>,
    /// A signature added below the test emails.
    pub signature_name: Option<String>,
    pub signature_title: Option<String>,
    pub signature_company: Option<String>,
}

impl AutomationTest {
    /// B §5's limits, first failure first.
    pub fn validate(&self) -> Result<(), Invalid> {
        if !is_valid_email(&normalize_email(&self.test_email)) {
            return Err("Please enter a valid email address".into());
        }
        if !(1..=5).contains(&self.quantity.unwrap_or(1)) {
            return Err("Quantity must be between 1 and 5".into());
        }
        if self
            .confidence_threshold
            .is_some_and(|value| !(0.0..=1.0).contains(&value))
        {
            return Err("Confidence threshold must be between 0 and 1".into());
        }
        if self
            .auto_reply_delay_minutes
            .is_some_and(|value| !(0..=1440).contains(&value))
        {
            return Err("Reply delay must be between 0 and 1440 minutes".into());
        }
        if self
            .auto_reply_max_per_day
            .is_some_and(|value| !(1..=100).contains(&value))
        {
            return Err("Automatic answers a day must be between 1 and 100".into());
        }
        for address in [&self.from_email, &self.reply_to_email]
            .into_iter()
            .flatten()
        {
            if !address.trim().is_empty() && !is_valid_email(address.trim()) {
                return Err("Please enter a valid email address".into());
            }
        }
        Ok(())
    }

    /// The signature block, when any of its fields is filled.
    fn signature(&self) -> Option<String> {
        let lines: Vec<String> = [
            &self.signature_name,
            &self.signature_title,
            &self.signature_company,
        ]
        .into_iter()
        .flatten()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            line.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect();
        (!lines.is_empty()).then(|| format!("<p>{}</p>", lines.join("<br>")))
    }
}

/// Why the test writes nothing.
#[derive(Debug, thiserror::Error)]
pub enum TestError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error("Template not found")]
    TemplateNotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The test's emails, and the businesses they were written for.
pub struct TestEmails {
    pub messages: Vec<TestMessage>,
    pub businesses: Vec<String>,
}

/// Writes the test's emails for `user_id` (with `automation`, already checked to be the user's); saves the form's
/// settings to the automation's campaign first. Sending them is the caller's (to the test address only).
pub async fn test_emails(
    ctx: &Context,
    user_id: i64,
    automation: Option<&AutomationRow>,
    request: &AutomationTest,
) -> Result<TestEmails, TestError> {
    request.validate()?;
    let db = &ctx.db;
    let template_id = request
        .email_template_id
        .or(automation.and_then(|row| row.email_template_id))
        .ok_or_else(|| Invalid::from("Please select an email template"))?;
    let template = db
        .template_content(template_id, user_id)
        .await?
        .ok_or(TestError::TemplateNotFound)?;
    if let Some(automation) = automation {
        save_campaign_settings(ctx, automation, request).await?;
    }
    let quantity = i64::from(request.quantity.unwrap_or(1));
    let ids = match automation {
        Some(row) => {
            db.automation_candidates(user_id, row.campaign_id, quantity)
                .await?
        }
        None => Vec::new(),
    };
    let found = db.recipients(&ids, user_id).await?;
    let mut recipients: Vec<Recipient> =
        ids.iter().filter_map(|id| found.get(id).cloned()).collect();
    for sample in recipients.len() as i64..quantity {
        recipients.push(Recipient {
            business_name: Some(format!(
                "Sample Business {} (made up for this test)",
                sample + 1
            )),
            city: automation.map(|row| row.geographic_area.clone()),
            ..Recipient::default()
        });
    }
    let signature = request.signature().unwrap_or_default();
    let messages = recipients
        .iter()
        .enumerate()
        .map(|(index, recipient)| {
            let seed = format!("automation-test-{index}");
            TestMessage {
                template_id: None,
                business_id: None,
                subject: render(&template.0, recipient, &seed).text,
                body: Some(format!(
                    "{}{signature}",
                    render_html(&template.1, recipient, &seed).text
                )),
            }
        })
        .collect();
    Ok(TestEmails {
        messages,
        businesses: recipients
            .into_iter()
            .filter_map(|recipient| recipient.business_name)
            .collect(),
    })
}

/// The test address, as the emails are sent to it.
pub fn test_address(request: &AutomationTest) -> String {
    normalize_email(&request.test_email)
}

/// The test form's auto-reply and branding fields, saved as the automation's campaign settings (the same the
/// builder's step 6 edits): off is manual; a confidence maps to the nearest certainty (90% high, 75% medium, else
/// low); the delay to the reply timing that contains it; approval required means every answer, else the first ten.
async fn save_campaign_settings(
    ctx: &Context,
    automation: &AutomationRow,
    request: &AutomationTest,
) -> StoreResult<()> {
    let db = &ctx.db;
    let Some(mut campaign) = db
        .find_campaign(automation.campaign_id, automation.user_id)
        .await?
    else {
        return Ok(());
    };
    let settings = &mut campaign.ai_settings;
    let confidence = request.confidence_threshold.unwrap_or(0.85);
    // Kept as given (a whole percent); the certainty shown in step 6 is the nearest one below it.
    settings.min_confidence_percent = Some((confidence * 100.0).round() as i32);
    settings.certainty_threshold = match request.auto_reply_enabled.unwrap_or(true) {
        false => CertaintyThreshold::Manual,
        true if confidence >= 0.9 => CertaintyThreshold::High,
        true if confidence >= 0.75 => CertaintyThreshold::Medium,
        true => CertaintyThreshold::Low,
    };
    if let Some(minutes) = request.auto_reply_delay_minutes {
        settings.reply_timing = match minutes {
            0..=5 => ReplyTiming::Immediate,
            6..=120 => ReplyTiming::Quick,
            121..=480 => ReplyTiming::Business,
            _ => ReplyTiming::Delayed,
        };
    }
    if let Some(required) = request.require_human_approval {
        // Off holds nothing back (B §9: human approval off by default).
        settings.human_approval = if required {
            HumanApproval::Always
        } else {
            HumanApproval::Never
        };
    }
    settings.auto_reply_max_per_day = request
        .auto_reply_max_per_day
        .unwrap_or(settings.auto_reply_max_per_day);
    let text = filled;
    if let Some(name) = text(&request.from_name) {
        campaign.email_from_name = Some(name);
    }
    if let Some(address) = text(&request.from_email) {
        campaign.email_from_address = Some(address);
    }
    if let Some(address) = text(&request.reply_to_email) {
        campaign.reply_to = Some(address);
    }
    db.update_campaign(&campaign, ctx.now_ms()).await?;
    Ok(())
}
