//! Email templates and their follow-up sequences: validation, HTML sanitising, and personalisation
//! (`[business name]`, `{{variable | fallback}}` and `{a|b|c}` spintax).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde::{Deserialize, Serialize};

use crate::clock::iso;

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

/// A stored template; it serialises as the API answers it (A §3 Email template).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
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
    #[serde(serialize_with = "iso_time")]
    pub created_at: i64,
    #[serde(skip)]
    pub updated_at: i64,
    pub emails_sent: i64,
}

/// A stored follow-up; it serialises as the API answers it (B §3 Follow-up template).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
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
    pub created_at: i64,
    #[serde(skip)]
    pub updated_at: i64,
}

fn iso_time<S: serde::Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&iso(*ms))
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
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateInput {
    pub name: Option<String>,
    pub subject: Option<String>,
    pub body: Option<String>,
    pub objective: Option<String>,
    pub tone: Option<String>,
    pub email_signature: Option<String>,
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
        "Unknown variable {0}: use {{{{businessName}}}}, {{{{city}}}}, {{{{website}}}} or {{{{category}}}}"
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
#[derive(Debug, Clone, Default, Deserialize)]
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

/// Keeps the editor's formatting (paragraphs, line breaks, bold, italic, underline, lists) and links; everything
/// else (scripts, event handlers, styles, images, forms) is removed.
pub fn sanitize_html(html: &str) -> String {
    ammonia::Builder::default()
        .tags(HashSet::from([
            "p", "br", "strong", "b", "em", "i", "u", "a", "ul", "ol", "li",
        ]))
        .tag_attributes(Default::default())
        .add_tag_attributes("a", ["href"])
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        .link_rel(Some("noopener noreferrer"))
        .clean(html)
        .to_string()
}

/// The text of an HTML fragment, for emptiness checks and previews.
pub fn html_text(html: &str) -> String {
    // Building the (empty) sanitiser costs as much as using it: once per process.
    static TEXT_ONLY: std::sync::LazyLock<ammonia::Builder<'static>> =
        std::sync::LazyLock::new(ammonia::Builder::empty);
    TEXT_ONLY.clean(html).to_string()
}

/// The data of one recipient that personalisation can use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recipient {
    pub business_name: Option<String>,
    pub city: Option<String>,
    pub website: Option<String>,
    pub category: Option<String>,
}

pub const VARIABLES: &[&str] = &["businessName", "city", "website", "category"];

impl Recipient {
    fn value(&self, variable: &str) -> Option<&str> {
        let value = match variable {
            "businessName" => &self.business_name,
            "city" => &self.city,
            "website" => &self.website,
            "category" => &self.category,
            _ => return None,
        };
        value
            .as_deref()
            .map(str::trim)
            .filter(|value| !value.is_empty())
    }
}

/// A template text rendered for one recipient, with the variables that had no value and no fallback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rendered {
    pub text: String,
    pub missing: Vec<String>,
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

/// Whether any brace group holds `<` or `>`. A sanitised body has those only in tags (text has `&lt;`).
fn groups_span_markup(text: &str) -> bool {
    let mut depth_starts = Vec::new();
    for (index, byte) in text.bytes().enumerate() {
        match byte {
            b'{' => depth_starts.push(index),
            b'}' => {
                if let Some(open) = depth_starts.pop()
                    && text[open..index].contains(['<', '>'])
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    // An unclosed group reaches the end of the text.
    depth_starts
        .first()
        .is_some_and(|&open| text[open..].contains(['<', '>']))
}

/// Every `{{name | fallback}}` in a text: (name, fallback).
fn variables(text: &str) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let Some(end) = rest[start..].find("}}") else {
            break;
        };
        let inner = &rest[start + 2..start + end];
        let (name, fallback) = match inner.split_once('|') {
            Some((name, fallback)) => (name.trim(), Some(fallback.trim().to_string())),
            None => (inner.trim(), None),
        };
        found.push((name.to_string(), fallback));
        rest = &rest[start + end + 2..];
    }
    found
}

/// Fills in `[business name]` and `{{variables}}`, then resolves spintax. The choice among spintax options is
/// fixed by `seed` (e.g. the recipient's address), so a retried send reads the same.
pub fn render(text: &str, recipient: &Recipient, seed: &str) -> Rendered {
    let mut missing = Vec::new();
    let mut output = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let Some(end) = rest[start..].find("}}") else {
            break;
        };
        output.push_str(&rest[..start]);
        let inner = &rest[start + 2..start + end];
        let (name, fallback) = match inner.split_once('|') {
            Some((name, fallback)) => (name.trim(), Some(fallback.trim())),
            None => (inner.trim(), None),
        };
        match (recipient.value(name), fallback) {
            (Some(value), _) => output.push_str(value),
            (None, Some(fallback)) => output.push_str(fallback),
            (None, None) => missing.push(name.to_string()),
        }
        rest = &rest[start + end + 2..];
    }
    output.push_str(rest);
    let output = replace_business_placeholder(&output, recipient, &mut missing);
    Rendered {
        text: spin(&output, seed),
        missing,
    }
}

/// A template body rendered for one recipient as HTML that is safe to send and to show: the recipient's values are
/// written as text (markup and spintax characters escaped, so data can neither add tags nor form `{a|b}` groups),
/// links that are not http(s) or mailto lose their address after rendering (a `{{website}}` of `javascript:…`),
/// an address without a scheme gets https, and a body saved before spanning groups were refused is sanitised again.
pub fn render_html(body: &str, recipient: &Recipient, seed: &str) -> Rendered {
    let escaped = Recipient {
        business_name: recipient.business_name.as_deref().map(escape_value),
        city: recipient.city.as_deref().map(escape_value),
        website: recipient.website.as_deref().map(escape_value),
        category: recipient.category.as_deref().map(escape_value),
    };
    let mut rendered = render(body, &escaped, seed);
    if groups_span_markup(body) {
        rendered.text = sanitize_html(&rendered.text);
    }
    rendered.text = safe_links(&rendered.text);
    rendered
}

/// A value as HTML text: `& < > "` and the spintax characters `{ | }` as character references (sanitised bodies
/// quote attributes with `"` only).
fn escape_value(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for character in value.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '{' => escaped.push_str("&#123;"),
            '|' => escaped.push_str("&#124;"),
            '}' => escaped.push_str("&#125;"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// Every `href="…"` kept only when, as a browser reads it (entities decoded), it is http(s) or mailto; one with
/// no scheme at all (`www.cafe.fi`) gets `https://`; any other loses its `href`.
fn safe_links(html: &str) -> String {
    const HREF: &str = " href=\"";
    let mut output = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(HREF) {
        let value_start = start + HREF.len();
        let Some(length) = rest[value_start..].find('"') else {
            break;
        };
        let raw = &rest[value_start..value_start + length];
        let url = html_escape::decode_html_entities(raw);
        let url = url.trim();
        let lower = url.to_ascii_lowercase();
        output.push_str(&rest[..start]);
        if ["http://", "https://", "mailto:"]
            .iter()
            .any(|scheme| lower.starts_with(scheme))
        {
            output.push_str(&rest[start..value_start + length + 1]);
        } else if !url.contains(':')
            && url.contains('.')
            && url.starts_with(|c: char| c.is_ascii_alphanumeric())
            && !url.contains(char::is_whitespace)
        {
            output.push_str(HREF);
            output.push_str("https://");
            output.push_str(raw.trim());
            output.push('"');
        }
        rest = &rest[value_start + length + 1..];
    }
    output.push_str(rest);
    output
}

/// The spec's `[business name]` placeholder, in any letter case.
fn replace_business_placeholder(
    text: &str,
    recipient: &Recipient,
    missing: &mut Vec<String>,
) -> String {
    const PLACEHOLDER: &str = "[business name]";
    let lower = text.to_lowercase();
    if !lower.contains(PLACEHOLDER) {
        return text.to_string();
    }
    let Some(name) = recipient.value("businessName") else {
        missing.push("businessName".to_string());
        return text.to_string();
    };
    let mut output = String::with_capacity(text.len());
    let mut position = 0;
    while let Some(found) = lower[position..].find(PLACEHOLDER) {
        output.push_str(&text[position..position + found]);
        output.push_str(name);
        position += found + PLACEHOLDER.len();
    }
    output.push_str(&text[position..]);
    output
}

/// Resolves `{a|b|c}` groups, innermost first, choosing by a hash of the seed and the group's position.
fn spin(text: &str, seed: &str) -> String {
    let mut text = text.to_string();
    let mut round = 0u64;
    while let Some(close) = text.find('}') {
        let Some(open) = text[..close].rfind('{') else {
            break;
        };
        let options: Vec<&str> = text[open + 1..close].split('|').collect();
        if options.len() < 2 {
            // A lone `{word}` is not spintax: keep it, and look beyond it.
            let (head, tail) = text.split_at(close + 1);
            return format!("{head}{}", spin(tail, seed));
        }
        let mut hasher = DefaultHasher::new();
        (seed, round).hash(&mut hasher);
        let choice = options[(hasher.finish() % options.len() as u64) as usize].to_string();
        text.replace_range(open..=close, &choice);
        round += 1;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cafe() -> Recipient {
        Recipient {
            business_name: Some("Café Ursula".into()),
            city: Some("Helsinki".into()),
            website: None,
            category: Some("cafe".into()),
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
            "Unknown variable {{firstName}}: use {{businessName}}, {{city}}, {{website}} or {{category}}"
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
