//! Enrichment from a business's own website: email addresses (mailto links, visible text with common obfuscations
//! and HTML entities, JSON-LD), ranked with the site's own domain first and junk rejected; social profiles; and the
//! site's likely contact pages. Pure functions over fetched HTML; fetching lives in `crawler`.

use serde::{Deserialize, Serialize};
use url::Url;

use crate::platform::text::{
    find_ignore_ascii_case, replace_ignore_ascii_case, starts_with_ignore_ascii_case,
};

/// An address and where it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundEmail {
    pub address: String,
    /// The page it was on.
    pub page: String,
    /// `mailto`, `text` or `json-ld`.
    pub how: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SocialProfile {
    pub platform: String,
    pub handle: String,
    pub url: String,
}

/// What one page offers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageFindings {
    pub emails: Vec<FoundEmail>,
    pub social: Vec<SocialProfile>,
    /// Same-site pages likely to list contacts.
    pub contact_pages: Vec<Url>,
}

const CONTACT_WORDS: &[&str] = &[
    "contact",
    "kontakt",
    "yhteys",
    "yhteystied",
    "about",
    "meista",
    "impressum",
    "team",
    "tiimi",
    "imprint",
];
const IMAGE_ENDINGS: &[&str] = &[
    ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".bmp",
];
const PLACEHOLDER_DOMAINS: &[&str] = &[
    "example.com",
    "example.org",
    "example.net",
    "domain.com",
    "email.com",
    "yourdomain.com",
    "yoursite.com",
    "company.com",
    "test.com",
    "sentry.io",
    "wixpress.com",
    "sentry-next.wixpress.com",
    "mysite.com",
];

pub fn extract(html: &str, page: &Url) -> PageFindings {
    let page_text = page.to_string();
    let mut emails = Vec::new();
    let hrefs = attribute_values(html, "href");
    for href in &hrefs {
        if let Some(rest) = strip_prefix_ci(href, "mailto:") {
            let address = percent_decode(rest.split('?').next().unwrap_or_default());
            for part in address.split(',') {
                push_email(&mut emails, part, &page_text, "mailto");
            }
        }
    }
    for block in script_blocks(html, "application/ld+json") {
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&decode_entities(&block)) {
            collect_json_emails(&value, &mut |address| {
                push_email(&mut emails, address, &page_text, "json-ld")
            });
        }
    }
    for address in scan_emails(&deobfuscate(&visible_text(html))) {
        push_email(&mut emails, &address, &page_text, "text");
    }
    let social = hrefs.iter().filter_map(|href| social_profile(href)).fold(
        Vec::new(),
        |mut list, profile| {
            if !list.iter().any(|known: &SocialProfile| {
                known.platform == profile.platform
                    && known.handle.eq_ignore_ascii_case(&profile.handle)
            }) {
                list.push(profile);
            }
            list
        },
    );
    let mut contact_pages: Vec<Url> = Vec::new();
    for href in &hrefs {
        let Ok(target) = page.join(href) else {
            continue;
        };
        let path = target.path().to_lowercase();
        if same_site(page, &target)
            && CONTACT_WORDS.iter().any(|word| path.contains(word))
            && !contact_pages.contains(&target)
        {
            contact_pages.push(target);
        }
    }
    PageFindings {
        emails,
        social,
        contact_pages,
    }
}

fn push_email(emails: &mut Vec<FoundEmail>, address: &str, page: &str, how: &str) {
    let address = address
        .trim()
        .trim_matches(|c: char| c == '.' || c == ',')
        .to_lowercase();
    if plausible_email(&address)
        && !emails
            .iter()
            .any(|known: &FoundEmail| known.address == address)
    {
        emails.push(FoundEmail {
            address,
            page: page.to_string(),
            how: how.to_string(),
        });
    }
}

/// Drops junk (images, placeholders, tracking ids) and puts the site's own domain first; stable otherwise.
pub fn rank(mut emails: Vec<FoundEmail>, site: &Url) -> Vec<FoundEmail> {
    let site_domain = registrable(site.host_str().unwrap_or_default());
    emails.retain(|email| !is_junk(&email.address));
    let mut seen = std::collections::HashSet::new();
    emails.retain(|email| seen.insert(email.address.clone()));
    emails.sort_by_key(|email| {
        let domain = email.address.rsplit('@').next().unwrap_or_default();
        registrable(domain) != site_domain
    });
    emails
}

fn is_junk(address: &str) -> bool {
    let (local, domain) = address.rsplit_once('@').unwrap_or((address, ""));
    IMAGE_ENDINGS.iter().any(|ending| address.ends_with(ending))
        || PLACEHOLDER_DOMAINS.iter().any(|placeholder| {
            domain == *placeholder || domain.ends_with(&format!(".{placeholder}"))
        })
        || (local.len() >= 20 && local.chars().all(|c| c.is_ascii_hexdigit()))
        || matches!(local, "your-email" | "youremail" | "name" | "email")
}

/// `www.shop.example.co.uk` and `example.co.uk` compare by their last labels.
fn registrable(host: &str) -> String {
    let host = host.trim_start_matches("www.").to_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    let keep = if labels.len() >= 3 && labels[labels.len() - 2].len() <= 3 {
        3
    } else {
        2
    };
    labels[labels.len().saturating_sub(keep)..].join(".")
}

pub fn same_site(a: &Url, b: &Url) -> bool {
    matches!(b.scheme(), "http" | "https")
        && registrable(a.host_str().unwrap_or_default())
            == registrable(b.host_str().unwrap_or_default())
}

/// Shaped like a deliverable address: a local part, a dotted domain, an alphabetic top-level domain.
pub fn plausible_email(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    let tld = domain.rsplit('.').next().unwrap_or_default();
    !local.is_empty()
        && local.len() <= 64
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.contains("..")
        && tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
}

/// Every `name@domain.tld` in a text.
fn scan_emails(text: &str) -> Vec<String> {
    let local_char = |c: char| c.is_ascii_alphanumeric() || "._%+-".contains(c);
    let domain_char = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '-';
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (at, _) in chars.iter().enumerate().filter(|(_, c)| **c == '@') {
        let mut start = at;
        while start > 0 && local_char(chars[start - 1]) {
            start -= 1;
        }
        let mut end = at + 1;
        while end < chars.len() && domain_char(chars[end]) {
            end += 1;
        }
        let candidate: String = chars[start..end].iter().collect();
        let candidate = candidate.trim_matches('.').to_string();
        if plausible_email(&candidate) {
            found.push(candidate);
        }
    }
    found
}

/// `name [at] domain [dot] com`, `name(at)domain.com`, `name at domain dot com` → `name@domain.com`.
pub fn deobfuscate(text: &str) -> String {
    let mut text = text.to_string();
    for (pattern, replacement) in [
        (" [at] ", "@"),
        ("[at]", "@"),
        (" (at) ", "@"),
        ("(at)", "@"),
        ("{at}", "@"),
        (" [dot] ", "."),
        ("[dot]", "."),
        (" (dot) ", "."),
        ("(dot)", "."),
        ("{dot}", "."),
    ] {
        text = replace_ignore_ascii_case(&text, pattern, replacement);
    }
    // Spelled-out words only where the result is an address: token at token (dot token)+.
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        if index + 4 < tokens.len() + 1
            && index + 2 < tokens.len()
            && tokens[index + 1].eq_ignore_ascii_case("at")
        {
            let mut joined = format!("{}@{}", tokens[index], tokens[index + 2]);
            let mut next = index + 3;
            while next + 1 < tokens.len() && tokens[next].eq_ignore_ascii_case("dot") {
                joined.push('.');
                joined.push_str(tokens[next + 1]);
                next += 2;
            }
            if next > index + 3
                && plausible_email(joined.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
            {
                out.push(joined);
                index = next;
                continue;
            }
        }
        out.push(tokens[index].to_string());
        index += 1;
    }
    out.join(" ")
}

/// The text a visitor reads: scripts, styles and tags removed, entities decoded.
fn visible_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut position = 0;
    while position < html.len() {
        let Some(open) = html[position..].find('<').map(|offset| position + offset) else {
            text.push_str(&html[position..]);
            break;
        };
        text.push_str(&html[position..open]);
        let skip_to = ["script", "style", "noscript"].iter().find_map(|tag| {
            starts_with_ignore_ascii_case(html, open, &format!("<{tag}")).then(|| {
                find_ignore_ascii_case(html, &format!("</{tag}"), open).unwrap_or(html.len())
            })
        });
        let from = skip_to.unwrap_or(open);
        position = html[from..]
            .find('>')
            .map_or(html.len(), |end| from + end + 1);
        text.push(' ');
    }
    decode_entities(&text)
}

fn decode_entities(text: &str) -> String {
    html_escape::decode_html_entities(text).into_owned()
}

/// Values of an attribute in the HTML (quoted or not), entities decoded.
fn attribute_values(html: &str, name: &str) -> Vec<String> {
    let needle = format!("{name}=");
    let mut values = Vec::new();
    let mut position = 0;
    while let Some(found) = find_ignore_ascii_case(html, &needle, position) {
        let start = found + needle.len();
        let rest = &html[start..];
        let value = match rest.chars().next() {
            Some(quote @ ('"' | '\'')) => rest[1..].split(quote).next().unwrap_or_default(),
            _ => rest
                .split(|c: char| c.is_whitespace() || c == '>')
                .next()
                .unwrap_or_default(),
        };
        values.push(decode_entities(value.trim()));
        position = start;
    }
    values
}

/// The contents of `<script type="...">` blocks.
fn script_blocks(html: &str, kind: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut position = 0;
    while let Some(open) = find_ignore_ascii_case(html, "<script", position) {
        let Some(tag_end) = html[open..].find('>').map(|end| open + end + 1) else {
            break;
        };
        let Some(close) = find_ignore_ascii_case(html, "</script", tag_end) else {
            break;
        };
        if find_ignore_ascii_case(&html[open..tag_end], kind, 0).is_some() {
            blocks.push(html[tag_end..close].to_string());
        }
        position = close;
    }
    blocks
}

fn collect_json_emails(value: &serde_json::Value, push: &mut impl FnMut(&str)) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                if key.eq_ignore_ascii_case("email")
                    && let Some(text) = item.as_str()
                {
                    push(text.trim_start_matches("mailto:"));
                }
                collect_json_emails(item, push);
            }
        }
        serde_json::Value::Array(items) => items
            .iter()
            .for_each(|item| collect_json_emails(item, push)),
        _ => {}
    }
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    starts_with_ignore_ascii_case(text, 0, prefix).then(|| &text[prefix.len()..])
}

fn percent_decode(text: &str) -> String {
    url::form_urlencoded::parse(text.replace('+', "%2B").as_bytes())
        .map(|(key, value)| format!("{key}{value}"))
        .collect()
}

/// A link to one of the six networks, as `{platform, handle, url}`; share buttons are not profiles.
pub fn social_profile(href: &str) -> Option<SocialProfile> {
    let url = Url::parse(href).ok()?;
    let host = url
        .host_str()?
        .trim_start_matches("www.")
        .trim_start_matches("m.")
        .to_lowercase();
    let segments: Vec<&str> = url
        .path_segments()?
        .filter(|segment| !segment.is_empty())
        .collect();
    let first = *segments.first()?;
    let (platform, handle) = match host.as_str() {
        "facebook.com" | "fb.com"
            if !matches!(
                first,
                "sharer.php" | "sharer" | "share.php" | "dialog" | "plugins"
            ) =>
        {
            ("facebook", first.to_string())
        }
        "instagram.com" if !matches!(first, "p" | "explore" | "reel") => {
            ("instagram", first.to_string())
        }
        "linkedin.com" if matches!(first, "company" | "in" | "school") => {
            ("linkedin", (*segments.get(1)?).to_string())
        }
        "x.com" | "twitter.com" if !matches!(first, "intent" | "share" | "home" | "hashtag") => {
            ("x", first.to_string())
        }
        "youtube.com" if first.starts_with('@') => ("youtube", first.to_string()),
        "youtube.com" if matches!(first, "channel" | "c" | "user") => {
            ("youtube", (*segments.get(1)?).to_string())
        }
        "tiktok.com" if first.starts_with('@') => ("tiktok", first.to_string()),
        _ => return None,
    };
    Some(SocialProfile {
        platform: platform.to_string(),
        handle: handle.trim_start_matches('@').to_string(),
        url: url.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Url {
        Url::parse("https://www.bakery.example.fi/").unwrap()
    }

    #[test]
    fn pages_with_letters_whose_case_changes_their_length_are_read_whole() {
        // 'İ' grows when lower-cased and the Kelvin sign shrinks: a page must not crash the crawler or lose text.
        let html = "<p>İİİİ \u{212a}\u{212a}</p><SCRIPT type=\"application/ld+json\">{\"email\":\"ld@bakery.example.fi\"}</script>\
                    <A HREF=\"mailto:İnfo@bakery.example.fi\">x</A><a href=\"mailto:sales@bakery.example.fi\">İ</a>\
                    <p>İ team [AT] bakery.example.fi</p><style>İ</style><p>İ chef@bakery.example.fi</p>";
        let found: Vec<String> = extract(html, &page())
            .emails
            .into_iter()
            .map(|email| email.address)
            .collect();
        for address in [
            "ld@bakery.example.fi",
            "sales@bakery.example.fi",
            "team@bakery.example.fi",
            "chef@bakery.example.fi",
        ] {
            assert!(
                found.contains(&address.to_string()),
                "{address} in {found:?}"
            );
        }
        assert_eq!(strip_prefix_ci("éééé", "mailto:"), None);
        assert_eq!(strip_prefix_ci("MAILTO:é", "mailto:"), Some("é"));
    }

    #[test]
    fn addresses_from_links_text_entities_obfuscation_and_json_ld() {
        let html = r#"<html><head><script type="application/ld+json">{"@type":"Bakery","contactPoint":{"email":"mailto:orders@bakery.example.fi"}}</script>
            <style>.a{content:"nope@style.fi"}</style></head><body>
            <a href="mailto:Hello@Bakery.example.fi?subject=Hi">Write</a>
            <p>Sales: sales [at] bakery.example [dot] fi, press (at) bakery.example.fi</p>
            <p>Jobs: jobs at bakery dot example dot fi. Meet us at the corner dot</p>
            <p>Chef: chef&#64;bakery.example.fi &amp; more</p>
            <img src="logo@2x.png"><p>tracking 4f2a9c0e1b2d3c4e5f6a7b8c9d0e1f2a@o1.ingest.sentry.io user@example.com</p>
            <a href="/fi/yhteystiedot">Yhteystiedot</a><a href="https://bakery.example.fi/about-us">About</a><a href="https://elsewhere.fi/contact">x</a>
            <a href="https://www.facebook.com/NordicBakery">fb</a><a href="https://www.facebook.com/sharer.php?u=x">share</a>
            <a href="https://www.instagram.com/nordic.bakery/">ig</a><a href="https://x.com/intent/tweet">tweet</a><a href="https://twitter.com/nordicbakery">tw</a>
            <a href="https://www.linkedin.com/company/nordic-bakery/">li</a><a href="https://www.youtube.com/@NordicBakery">yt</a><a href="https://www.tiktok.com/@nordicbakery">tt</a>
            </body></html>"#;
        let findings = extract(html, &page());
        let addresses: Vec<(&str, &str)> = findings
            .emails
            .iter()
            .map(|e| (e.address.as_str(), e.how.as_str()))
            .collect();
        for expected in [
            ("hello@bakery.example.fi", "mailto"),
            ("orders@bakery.example.fi", "json-ld"),
            ("sales@bakery.example.fi", "text"),
            ("press@bakery.example.fi", "text"),
            ("jobs@bakery.example.fi", "text"),
            ("chef@bakery.example.fi", "text"),
        ] {
            assert!(
                addresses.contains(&expected),
                "{expected:?} missing from {addresses:?}"
            );
        }
        assert!(
            !addresses
                .iter()
                .any(|(address, _)| address.contains("style.fi")),
            "styles are not text"
        );
        let ranked = rank(findings.emails.clone(), &page());
        assert!(
            ranked
                .iter()
                .all(|e| e.address.ends_with("bakery.example.fi")),
            "{ranked:?}"
        );
        let platforms: Vec<(&str, &str)> = findings
            .social
            .iter()
            .map(|s| (s.platform.as_str(), s.handle.as_str()))
            .collect();
        assert_eq!(
            platforms,
            vec![
                ("facebook", "NordicBakery"),
                ("instagram", "nordic.bakery"),
                ("x", "nordicbakery"),
                ("linkedin", "nordic-bakery"),
                ("youtube", "NordicBakery"),
                ("tiktok", "nordicbakery")
            ]
        );
        let pages: Vec<String> = findings.contact_pages.iter().map(Url::to_string).collect();
        assert_eq!(
            pages,
            vec![
                "https://www.bakery.example.fi/fi/yhteystiedot",
                "https://bakery.example.fi/about-us"
            ]
        );
    }

    #[test]
    fn own_domain_first_and_junk_dropped() {
        let found = |address: &str| FoundEmail {
            address: address.into(),
            page: "p".into(),
            how: "text".into(),
        };
        let ranked = rank(
            vec![
                found("info@gmail.com"),
                found("logo@2x.png"),
                found("hello@bakery.example.fi"),
                found("you@example.com"),
                found("info@gmail.com"),
            ],
            &page(),
        );
        assert_eq!(
            ranked
                .iter()
                .map(|e| e.address.as_str())
                .collect::<Vec<_>>(),
            vec!["hello@bakery.example.fi", "info@gmail.com"]
        );
    }

    #[test]
    fn spelled_out_words_need_an_address_shape() {
        assert_eq!(
            deobfuscate("mail anna at studio dot fi now"),
            "mail anna@studio.fi now"
        );
        assert_eq!(deobfuscate("we are at home today"), "we are at home today");
    }
}
