//! The automation test (B §2.6, §5, §9): 1 to 5 emails of the automation's template, personalised for made-up
//! businesses of its kind and area (named as such), for the test address only, never a prospect.
//! The test saves nothing: its automatic-answer settings are described in its answer, its from name and reply-to are
//! the test emails' own.

use serde::Deserialize;

use super::store::AutomationRow;
use crate::Context;
use crate::accounts::{is_valid_email, normalize_email};
use crate::campaigns::personalise::{Recipient, render, render_html};
use crate::platform::db::StoreError;
use crate::platform::invalid::Invalid;
use crate::platform::jobs::Branding;
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
    /// What automatic answers would do, described in the result (the test saves nothing).
    pub auto_reply_enabled: Option<bool>,
    /// 0 to 1 (default 0.85).
    pub confidence_threshold: Option<f64>,
    /// 0 to 1440.
    pub auto_reply_delay_minutes: Option<i32>,
    pub require_human_approval: Option<bool>,
    /// 1 to 100 (default 20).
    pub auto_reply_max_per_day: Option<i32>,
    /// The test emails' from name and reply-to (over the sender's own); the from address is the sender's.
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

    /// The test emails' from name and reply-to address, where the form gives them.
    pub fn branding(&self) -> Branding {
        Branding {
            from_name: filled(&self.from_name),
            reply_to: filled(&self.reply_to_email),
        }
    }

    /// What the form's automatic-answer settings would do with a reply, in words (B §9's defaults where unset).
    fn answers(&self) -> String {
        if !self.auto_reply_enabled.unwrap_or(true) {
            return "With these settings, replies are read and shown, and none is answered automatically.".into();
        }
        let percent = (self.confidence_threshold.unwrap_or(0.85) * 100.0).round();
        let when = match self.auto_reply_delay_minutes.unwrap_or(0) {
            0 => "at once".to_string(),
            1 => "1 minute after it arrives".to_string(),
            minutes => format!("{minutes} minutes after it arrives"),
        };
        let cap = self.auto_reply_max_per_day.unwrap_or(20);
        let approval = if self.require_human_approval.unwrap_or(false) {
            "each waits for your approval"
        } else {
            "without waiting for approval"
        };
        format!(
            "With these settings, a reply read with {percent}% certainty or more is answered {when}, \
             {approval}, at most {cap} a day; a request to stop is never answered, and a reply from anyone but the prospect \
             waits for your approval."
        )
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

/// The test's emails, the made-up businesses they were written for, and what its automatic-answer settings mean.
pub struct TestEmails {
    pub messages: Vec<TestMessage>,
    pub businesses: Vec<String>,
    pub answers: String,
}

/// Writes the test's emails for `user_id` (with `automation`, already checked to be the user's) for 1 to 5 made-up
/// businesses of the automation's kind and area (B §9: mock businesses). Saves nothing: the live automation keeps
/// its settings (its campaign's AI settings, step 6 of the builder). Sending them is the caller's, to the test
/// address only, with [`AutomationTest::branding`].
pub async fn test_emails(
    ctx: &Context,
    user_id: i64,
    automation: Option<&AutomationRow>,
    request: &AutomationTest,
) -> Result<TestEmails, TestError> {
    request.validate()?;
    let template_id = request
        .email_template_id
        .or(automation.and_then(|row| row.email_template_id))
        .ok_or_else(|| Invalid::from("Please select an email template"))?;
    let template = ctx
        .db
        .campaigns()
        .template_content(template_id, user_id)
        .await?
        .ok_or(TestError::TemplateNotFound)?;
    let recipients: Vec<Recipient> = (1..=request.quantity.unwrap_or(1))
        .map(|number| mock_business(automation, number))
        .collect();
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
        answers: request.answers(),
    })
}

/// A made-up business of the automation's kind in its area, named as such.
fn mock_business(automation: Option<&AutomationRow>, number: i32) -> Recipient {
    let kind = automation
        .map(|row| row.business_type.trim())
        .filter(|kind| !kind.is_empty())
        .unwrap_or("Business");
    Recipient {
        business_name: Some(format!("Sample {kind} {number} (made up for this test)")),
        city: automation.map(|row| row.geographic_area.clone()),
        category: automation.map(|row| row.business_type.clone()),
        website: None,
        icebreaker: None,
    }
}

/// The test address, as the emails are sent to it.
pub fn test_address(request: &AutomationTest) -> String {
    normalize_email(&request.test_email)
}
