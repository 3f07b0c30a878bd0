//! Personalisation: a template body written for one recipient (`[business name]`, `{{variable | fallback}}` and
//! `{a|b|c}` spintax), as HTML that is safe to send and to show, and the HTML sanitising every saved body gets.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde::Serialize;

use crate::platform::text::{find_ignore_ascii_case, replace_ignore_ascii_case};

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
    /// The prospect's first line, written from its website (`{{icebreaker}}`); none when the site gave no facts or
    /// the user dropped it.
    pub icebreaker: Option<String>,
}

pub const VARIABLES: &[&str] = &["businessName", "city", "website", "category", "icebreaker"];

impl Recipient {
    /// The made-up business a test email with none is written for, so every placeholder reads as it would (A §5:
    /// the business-name placeholder is replaced in test emails), each value saying it is a sample. No icebreaker:
    /// the template's fallback shows, as for a business whose website gave no facts.
    pub fn sample() -> Self {
        Self {
            business_name: Some("Sample Business".into()),
            city: Some("Sample City".into()),
            website: Some("https://sample-business.example".into()),
            category: Some("Sample Category".into()),
            icebreaker: None,
        }
    }

    fn value(&self, variable: &str) -> Option<&str> {
        let value = match variable {
            "businessName" => &self.business_name,
            "city" => &self.city,
            "website" => &self.website,
            "category" => &self.category,
            "icebreaker" => &self.icebreaker,
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

/// Whether any brace group holds `<` or `>`. A sanitised body has those only in tags (text has `&lt;`).
pub(crate) fn groups_span_markup(text: &str) -> bool {
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
pub(crate) fn variables(text: &str) -> Vec<(String, Option<String>)> {
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
        icebreaker: recipient.icebreaker.as_deref().map(escape_value),
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

/// The spec's `[business name]` placeholder, in any ASCII letter case.
fn replace_business_placeholder(
    text: &str,
    recipient: &Recipient,
    missing: &mut Vec<String>,
) -> String {
    const PLACEHOLDER: &str = "[business name]";
    if find_ignore_ascii_case(text, PLACEHOLDER, 0).is_none() {
        return text.to_string();
    }
    let Some(name) = recipient.value("businessName") else {
        missing.push("businessName".to_string());
        return text.to_string();
    };
    replace_ignore_ascii_case(text, PLACEHOLDER, name)
}

/// Resolves `{a|b|c}` groups, innermost first, choosing by a hash of the seed and the group's position, in one pass
/// with a stack of open braces (a body may hold tens of thousands of groups). A group without `|` (`{word}`) is not
/// spintax: it stays, and so does every brace still open before it; the choices after it are numbered afresh. A
/// brace without its pair is text.
fn spin(text: &str, seed: &str) -> String {
    let mut output = String::with_capacity(text.len());
    let mut open_braces: Vec<usize> = Vec::new();
    let mut round = 0u64;
    for character in text.chars() {
        match character {
            '{' => {
                open_braces.push(output.len());
                output.push('{');
            }
            '}' => {
                let Some(open) = open_braces.pop() else {
                    output.push('}');
                    continue;
                };
                let group = &output[open + 1..];
                if !group.contains('|') {
                    output.push('}');
                    open_braces.clear();
                    round = 0;
                    continue;
                }
                let options = group.split('|').count() as u64;
                let mut hasher = DefaultHasher::new();
                (seed, round).hash(&mut hasher);
                let choice = group
                    .split('|')
                    .nth((hasher.finish() % options) as usize)
                    .unwrap_or_default()
                    .to_string();
                output.truncate(open);
                output.push_str(&choice);
                round += 1;
            }
            other => output.push(other),
        }
    }
    output
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cafe() -> Recipient {
        Recipient {
            business_name: Some("Cafe".into()),
            city: Some("İzmir".into()),
            ..Recipient::default()
        }
    }

    #[test]
    fn the_business_placeholder_is_found_beside_letters_whose_case_changes_their_length() {
        // 'İ' grows when lower-cased and the Kelvin sign shrinks: offsets found in a lower-cased copy are wrong.
        let cases = [
            (
                "<p>İstanbul: [business name]’s team</p>",
                "<p>İstanbul: Cafe’s team</p>",
            ),
            ("<p>İ [business name] é</p>", "<p>İ Cafe é</p>"),
            ("\u{212a} [Business Name]!", "\u{212a} Cafe!"),
            ("{{city}} [BUSINESS NAME]", "İzmir Cafe"),
            ("ẞ ß [business name] [business name]", "ẞ ß Cafe Cafe"),
        ];
        for (template, expected) in cases {
            assert_eq!(
                render(template, &cafe(), "seed").text,
                expected,
                "{template}"
            );
        }
        assert_eq!(
            render_html("<p>{{city}}: [business name]</p>", &cafe(), "seed").text,
            "<p>İzmir: Cafe</p>"
        );
    }

    #[test]
    fn spintax_keeps_lone_groups_and_stray_braces_and_resolves_the_rest() {
        let text = spin("a} {x} {Hi|Hi} {b", "seed");
        assert_eq!(text, "a} {x} Hi {b");
        // Deeply nested and many groups: no recursion, no quadratic rescans.
        let many = "{x}".repeat(40_000);
        assert_eq!(spin(&many, "seed"), many);
        let nested = format!("{}a|a{}", "{".repeat(5_000), "}".repeat(5_000));
        assert_eq!(spin(&nested, "seed").trim_matches(['{', '}']), "a");
    }
}
