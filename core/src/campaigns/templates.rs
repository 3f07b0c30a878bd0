//! Email templates and their follow-up sequences: the stored rows, the request bodies and their validation (known
//! variables only, no spintax group across markup). Rendering for a recipient is in `personalise`.

use serde::{Deserialize, Serialize};

use crate::campaigns::personalise::{
    VARIABLES, groups_span_markup, html_text, sanitize_html, variables,
};
use crate::platform::clock::Timestamp;

pub const TONES: &[&str] = &["professional", "friendly", "casual"];
pub const OBJECTIVES: &[&str] = &[
    "Lead Generation",
    "Marketing Pitch",
    "Partnership Proposal",
    "Custom",
];

/// Follow-ups: 1 to 4 per template, 1 to 7 days apart, 3 by default (B §4, §9).
pub const MAX_FOLLOW_UPS: usize = 4;
pub const DEFAULT_DELAY_DAYS: i32 = 3;
pub const FOLLOW_UP_INVALID: &str = "Validation Error: Please fill in all fields for each follow-up email and ensure delay days are between 1-7";

/// An extra A/B variant of a step (see `campaigns::variants`) as a request carries it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariantInput {
    pub subject: Option<String>,
    pub body: Option<String>,
}

/// An extra variant as stored and answered: its subject and sanitised body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    pub subject: String,
    pub body: String,
}

/// A stored template; it serialises as the API answers it (A §3 Email template).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateRow {
    pub id: i64,
    #[serde(skip)]
    pub user_id: i64,
    pub name: String,
    pub subject: String,
    pub body: String,
    pub objective: String,
    pub tone: String,
    pub email_signature: Option<String>,
    /// When its follow-ups are due.
    pub follow_up_timing: FollowUpTiming,
    pub created_at: Timestamp,
    #[serde(skip)]
    pub updated_at: Timestamp,
    pub emails_sent: i64,
    #[serde(skip)]
    pub emails_opened: i64,
    #[serde(skip)]
    pub emails_replied: i64,
    /// Percent, whole (B §9): its own opens once it has 20 sends, until then the figure expected for its objective
    /// and tone.
    #[sqlx(skip)]
    pub estimated_open_rate: i64,
    /// Percent, whole: its own replies the same way.
    #[sqlx(skip)]
    pub response_rate: i64,
    /// The first email's extra A/B variants (B onwards; its own subject and body are A).
    #[sqlx(skip)]
    pub variants: Vec<Variant>,
}

impl TemplateRow {
    /// With its rates worked out from its own figures (see `campaigns::rates`).
    pub fn with_rates(mut self) -> Self {
        let own = (self.emails_sent, self.emails_opened, self.emails_replied);
        let estimate = crate::campaigns::rates::estimate(&self.objective, &self.tone, own);
        self.estimated_open_rate = estimate.open_rate.round() as i64;
        self.response_rate = estimate.reply_rate.round() as i64;
        self
    }
}

crate::text_enum! {
    /// When a template's follow-ups are due: `delayDays` after the previous email was opened by a person (the
    /// spec's 'N days after open'), or after it was sent, when there is no reply.
    pub enum FollowUpTiming ("follow-up timing") {
        AfterOpen = "after_open",
        AfterSend = "after_send",
    }
}

/// A stored follow-up; it serialises as the API answers it (B §3 Follow-up template).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowUpRow {
    pub id: i64,
    pub main_template_id: i64,
    pub name: String,
    pub subject: String,
    pub body: String,
    pub objective: String,
    pub tone: String,
    pub sequence_number: i32,
    pub delay_days: i32,
    pub is_active: bool,
    #[serde(skip)]
    pub created_at: Timestamp,
    #[serde(skip)]
    pub updated_at: Timestamp,
    /// The step's extra A/B variants (B onwards; its own subject and body are A).
    #[sqlx(skip)]
    pub variants: Vec<Variant>,
}

/// A template's content after validation and sanitising, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateContent {
    pub name: String,
    pub subject: String,
    pub body: String,
    pub objective: String,
    pub tone: String,
    pub email_signature: Option<String>,
}

/// The fields of a template as a request carries them.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateInput {
    pub name: Option<String>,
    pub subject: Option<String>,
    pub body: Option<String>,
    pub objective: Option<String>,
    pub tone: Option<String>,
    pub email_signature: Option<String>,
    /// The first email's extra A/B variants, B onwards (absent: unchanged; at most 4, so the step holds 5).
    pub variants: Option<Vec<VariantInput>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("Template name is required")]
    NameRequired,
    #[error("Subject is required")]
    SubjectRequired,
    #[error("Email body is required")]
    BodyRequired,
    #[error("Objective is required")]
    ObjectiveRequired,
    #[error("Tone must be professional, friendly or casual")]
    Tone,
    #[error(
        "Unknown variable {0}: use {{{{businessName}}}}, {{{{city}}}}, {{{{website}}}}, {{{{category}}}} or {{{{icebreaker}}}}"
    )]
    UnknownVariable(String),
    #[error("{FOLLOW_UP_INVALID}")]
    FollowUp,
    #[error("A template has at most 4 follow-ups")]
    TooManyFollowUps,
    #[error(
        "Spintax and fallbacks cannot contain formatting or links: keep each {{a|b}} group within one piece of text"
    )]
    GroupAcrossMarkup,
}

impl TemplateInput {
    /// Validates every field and sanitises the body. Unknown personalisation variables are refused here, so they
    /// are never sent raw.
    pub fn validate(&self) -> Result<TemplateContent, TemplateError> {
        let text = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .unwrap_or_default()
                .to_string()
        };
        let (name, subject, objective) =
            (text(&self.name), text(&self.subject), text(&self.objective));
        let body = sanitize_html(self.body.as_deref().unwrap_or_default());
        let tone = self
            .tone
            .as_deref()
            .map(str::trim)
            .filter(|tone| !tone.is_empty())
            .unwrap_or("professional");
        if name.is_empty() {
            return Err(TemplateError::NameRequired);
        }
        if subject.is_empty() {
            return Err(TemplateError::SubjectRequired);
        }
        if html_text(&body).trim().is_empty() {
            return Err(TemplateError::BodyRequired);
        }
        let objective = if objective.is_empty() {
            OBJECTIVES[0].to_string()
        } else {
            objective
        };
        if !TONES.contains(&tone) {
            return Err(TemplateError::Tone);
        }
        check_variables(&subject)?;
        check_variables(&body)?;
        check_groups(&body)?;
        let email_signature = self
            .email_signature
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        Ok(TemplateContent {
            name,
            subject,
            body,
            objective,
            tone: tone.to_string(),
            email_signature,
        })
    }
}

/// A follow-up as a request carries it (`POST`/`PUT /api/follow-up-templates`, and the sequence sync).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowUpInput {
    pub main_template_id: Option<i64>,
    pub name: Option<String>,
    pub subject: Option<String>,
    pub body: Option<String>,
    pub objective: Option<String>,
    pub tone: Option<String>,
    pub sequence_number: Option<i32>,
    pub delay_days: Option<i32>,
    pub is_active: Option<bool>,
    /// The step's extra A/B variants, B onwards (absent: unchanged; at most 4, so the step holds 5).
    pub variants: Option<Vec<VariantInput>>,
}

/// A follow-up after validation, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowUpContent {
    pub name: String,
    pub subject: String,
    pub body: String,
    pub objective: String,
    pub tone: String,
    pub sequence_number: i32,
    pub delay_days: i32,
    pub is_active: bool,
}

impl FollowUpInput {
    /// `position` (1-based) names and numbers the follow-up when the request does not.
    pub fn validate(&self, position: i32) -> Result<FollowUpContent, TemplateError> {
        let subject = self
            .subject
            .as_deref()
            .map(str::trim)
            .unwrap_or_default()
            .to_string();
        let body = sanitize_html(self.body.as_deref().unwrap_or_default());
        let delay_days = self.delay_days.unwrap_or(DEFAULT_DELAY_DAYS);
        let sequence_number = self.sequence_number.unwrap_or(position);
        if subject.is_empty()
            || html_text(&body).trim().is_empty()
            || !(1..=7).contains(&delay_days)
        {
            return Err(TemplateError::FollowUp);
        }
        if !(1..=MAX_FOLLOW_UPS as i32).contains(&sequence_number) {
            return Err(TemplateError::TooManyFollowUps);
        }
        check_variables(&subject)?;
        check_variables(&body)?;
        check_groups(&body)?;
        let tone = self.tone.as_deref().unwrap_or("professional");
        if !TONES.contains(&tone) {
            return Err(TemplateError::Tone);
        }
        let name = self
            .name
            .as_deref()
            .map(str::trim)
            .filter(|name| !name.is_empty());
        Ok(FollowUpContent {
            name: name.map_or_else(
                || format!("Follow-up Email #{sequence_number}"),
                str::to_string,
            ),
            subject,
            body,
            objective: self
                .objective
                .clone()
                .unwrap_or_else(|| "Follow-up".to_string()),
            tone: tone.to_string(),
            sequence_number,
            delay_days,
            is_active: self.is_active.unwrap_or(true),
        })
    }
}

/// Refuses `{{variables}}` personalisation does not know.
pub fn check_variables(text: &str) -> Result<(), TemplateError> {
    for (variable, _) in variables(text) {
        if !VARIABLES.contains(&variable.as_str()) {
            return Err(TemplateError::UnknownVariable(format!(
                "{{{{{variable}}}}}"
            )));
        }
    }
    Ok(())
}

/// Refuses a sanitised body whose `{…}` groups (spintax, or a variable's fallback) hold a tag: choosing an option
/// per recipient would cut the tag apart, and what is left of it could become an attribute.
pub fn check_groups(body: &str) -> Result<(), TemplateError> {
    if groups_span_markup(body) {
        return Err(TemplateError::GroupAcrossMarkup);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaigns::personalise::*;
    use std::collections::HashSet;

    fn cafe() -> Recipient {
        Recipient {
            business_name: Some("Café Ursula".into()),
            city: Some("Helsinki".into()),
            website: None,
            category: Some("cafe".into()),
            icebreaker: None,
        }
    }

    #[test]
    fn variables_fallbacks_and_the_bracket_placeholder() {
        let rendered = render(
            "Hi [Business Name] in {{city}}, see {{ website | your site }}.",
            &cafe(),
            "a@b.c",
        );
        assert_eq!(rendered.text, "Hi Café Ursula in Helsinki, see your site.");
        assert!(rendered.missing.is_empty());
        let missing = render(
            "About {{website}} and [business name]",
            &Recipient::default(),
            "x",
        );
        assert_eq!(missing.missing, vec!["website", "businessName"]);
    }

    #[test]
    fn spintax_is_stable_per_seed_and_uses_every_option() {
        let text = "{Hello|Hi|Good day}, {{businessName}}";
        let first = render(text, &cafe(), "ada@example.org").text;
        assert_eq!(first, render(text, &cafe(), "ada@example.org").text);
        let seen: HashSet<String> = (0..50)
            .map(|n| render(text, &cafe(), &format!("seed-{n}")).text)
            .collect();
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert!(seen.iter().all(|text| text.ends_with(", Café Ursula")));
        assert_eq!(
            render("{a|{b|c}}", &cafe(), "s").text.len(),
            1,
            "nested groups resolve"
        );
        assert_eq!(
            render("keep {this} as is", &cafe(), "s").text,
            "keep {this} as is"
        );
    }

    #[test]
    fn groups_holding_tags_are_refused_and_others_pass() {
        for body in [
            "<p>{Hello|Hi} {{businessName}}, {{ city | <b>there</b> }}</p>",
            "<p>{a|<b>b</b>}</p>",
            "<p>{Hello</p><p>|Hi</p><p>} there</p>",
            "<p>{unclosed <b>x</b></p>",
        ] {
            assert_eq!(
                check_groups(body),
                Err(TemplateError::GroupAcrossMarkup),
                "{body}"
            );
        }
        assert_eq!(
            check_groups(
                "<p>{Hello|Hi} {{businessName}}, see <a href=\"{https://a.example|https://b.example}\">x</a></p>"
            ),
            Ok(())
        );
    }

    #[test]
    fn html_rendering_writes_values_as_text_and_keeps_only_safe_links() {
        let recipient = Recipient {
            business_name: Some("<b onclick=x()>{a|b}</b> & \"Co\"".into()),
            website: Some("javascript:alert(1)".into()),
            city: Some("www.cafe.example".into()),
            category: Some("JaVaScRiPt&#58;alert(2)".into()),
            icebreaker: None,
        };
        let body = "<p>{{businessName}} <a href=\"{{website}}\">site</a> <a href=\"{{city}}\">city</a> \
                    <a href=\"{{category}}\">c</a> <a href=\"mailto:ada@bakery.example\">m</a> \
                    <a href=\"HTTPS://ok.example/?a=1&amp;b=2\">ok</a></p>";
        let html = render_html(body, &recipient, "seed").text;
        assert_eq!(
            html,
            "<p>&lt;b onclick=x()&gt;&#123;a&#124;b&#125;&lt;/b&gt; &amp; &quot;Co&quot; <a>site</a> \
             <a href=\"https://www.cafe.example\">city</a> <a>c</a> <a href=\"mailto:ada@bakery.example\">m</a> \
             <a href=\"HTTPS://ok.example/?a=1&amp;b=2\">ok</a></p>"
        );
        // A body saved before spanning groups were refused is sanitised after rendering.
        let legacy = render_html(
            "<p>{x|<a href=\"https://a.example\">y</a>}</p>",
            &cafe(),
            "s",
        )
        .text;
        assert!(
            legacy == "<p>x</p>" || legacy.contains("rel=\"noopener noreferrer\""),
            "{legacy}"
        );
    }

    #[test]
    fn unknown_variables_are_refused() {
        assert_eq!(
            check_variables("Hi {{businessName}} {{ city | there }}"),
            Ok(())
        );
        assert_eq!(
            check_variables("Hi {{firstName}}").unwrap_err().to_string(),
            "Unknown variable {{firstName}}: use {{businessName}}, {{city}}, {{website}}, {{category}} or {{icebreaker}}"
        );
    }

    #[test]
    fn sanitising_keeps_formatting_and_links_only() {
        let dirty = r#"<p onclick="x()">Hi <strong>there</strong> <em>you</em><script>alert(1)</script>
            <img src=x onerror=alert(1)><a href="javascript:alert(1)">bad</a> <a href="https://ok.example" target="_blank">ok</a></p>
            <ul><li>one</li></ul><div style="color:red">text</div>"#;
        let clean = sanitize_html(dirty);
        for gone in [
            "script",
            "onerror",
            "onclick",
            "javascript",
            "<img",
            "style",
            "target",
            "<div",
        ] {
            assert!(!clean.contains(gone), "{gone} survived: {clean}");
        }
        for kept in [
            "<strong>there</strong>",
            "<em>you</em>",
            r#"href="https://ok.example""#,
            "<ul><li>one</li></ul>",
            "text",
        ] {
            assert!(clean.contains(kept), "{kept} lost: {clean}");
        }
    }

    #[test]
    fn templates_validate_with_the_spec_messages() {
        let valid = TemplateInput {
            name: Some(" Intro ".into()),
            subject: Some("Hello {{businessName}}".into()),
            body: Some("<p>Hi</p>".into()),
            objective: None,
            tone: Some("friendly".into()),
            email_signature: Some("Ada".into()),
            variants: None,
        };
        let content = valid.validate().unwrap();
        assert_eq!(
            (
                content.name.as_str(),
                content.objective.as_str(),
                content.tone.as_str()
            ),
            ("Intro", "Lead Generation", "friendly")
        );
        let broken = |change: fn(&mut TemplateInput)| {
            let mut input = valid.clone();
            change(&mut input);
            input.validate().unwrap_err().to_string()
        };
        assert_eq!(
            broken(|i| i.name = Some(" ".into())),
            "Template name is required"
        );
        assert_eq!(broken(|i| i.subject = None), "Subject is required");
        assert_eq!(
            broken(|i| i.body = Some("<script>x</script>".into())),
            "Email body is required"
        );
        assert_eq!(
            broken(|i| i.tone = Some("angry".into())),
            "Tone must be professional, friendly or casual"
        );
        assert!(
            broken(|i| i.body = Some("<p>{{nope}}</p>".into()))
                .starts_with("Unknown variable {{nope}}")
        );
    }

    #[test]
    fn follow_ups_validate_and_name_themselves() {
        let input = FollowUpInput {
            subject: Some("Re: hello".into()),
            body: Some("<p>Any news?</p>".into()),
            ..Default::default()
        };
        let content = input.validate(2).unwrap();
        assert_eq!(
            (
                content.name.as_str(),
                content.delay_days,
                content.sequence_number,
                content.tone.as_str()
            ),
            ("Follow-up Email #2", 3, 2, "professional")
        );
        for bad in [
            FollowUpInput {
                delay_days: Some(8),
                ..input.clone()
            },
            FollowUpInput {
                delay_days: Some(0),
                ..input.clone()
            },
            FollowUpInput {
                subject: Some(" ".into()),
                ..input.clone()
            },
        ] {
            assert_eq!(bad.validate(1).unwrap_err().to_string(), FOLLOW_UP_INVALID);
        }
        assert_eq!(
            input.validate(5).unwrap_err(),
            TemplateError::TooManyFollowUps
        );
    }
}
