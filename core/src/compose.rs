//! One outgoing email composed for its recipient: the template personalised (values HTML-escaped in the body),
//! links rewritten to signed click-tracking URLs, an open pixel, a footer with the sender's postal address and the
//! unsubscribe link (CAN-SPAM), a plain-text alternative, a Message-ID on the sender's domain, and the RFC 8058
//! one-click `List-Unsubscribe` headers. Pure: the same message row composes the same bytes on a retry.

use crate::Settings;
use crate::links::{click_url, open_pixel_url, unsubscribe_url};
use crate::templates::{Recipient, render};

/// What a provider is handed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Composed {
    pub from_name: String,
    pub from_email: String,
    pub reply_to: Option<String>,
    pub to_email: String,
    pub subject: String,
    /// The personalised body as the user wrote it: no tracking links, pixel or footer. This is what the app keeps
    /// and shows of a sent message (showing `html` would fetch its open pixel and count an open).
    pub body: String,
    pub html: String,
    pub text: String,
    /// Without angle brackets: `token@domain`.
    pub message_id: String,
    /// `List-Unsubscribe` and `List-Unsubscribe-Post`.
    pub headers: Vec<(String, String)>,
}

/// Who sends, to whom, and the message's tracking token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope<'a> {
    pub from_name: &'a str,
    pub from_email: &'a str,
    pub reply_to: Option<&'a str>,
    pub to_email: &'a str,
    /// The sender's postal address for the footer (empty: the line is left out).
    pub postal_address: &'a str,
    /// The message's random token: tracking links and the Message-ID carry it.
    pub token: &'a str,
}

/// Composes the template's subject and HTML body for `recipient`.
pub fn compose(
    settings: &Settings,
    envelope: &Envelope<'_>,
    subject: &str,
    body_html: &str,
    recipient: &Recipient,
) -> Composed {
    let seed = envelope.to_email;
    let subject = render(subject, recipient, seed)
        .text
        .replace(['\r', '\n'], " ");
    let escaped = Recipient {
        business_name: recipient.business_name.as_deref().map(escape),
        city: recipient.city.as_deref().map(escape),
        website: recipient.website.as_deref().map(escape),
        category: recipient.category.as_deref().map(escape),
    };
    let personal = render(body_html, &escaped, seed).text;
    let body = rewrite_links(&personal, |url| click_url(settings, envelope.token, url));
    let unsubscribe = unsubscribe_url(settings, envelope.to_email);
    let postal = envelope.postal_address.trim();
    let mut footer_html = String::new();
    let mut footer_text = String::new();
    if !postal.is_empty() {
        footer_html.push_str(&format!("{}<br>", escape(postal).replace('\n', "<br>")));
        footer_text.push_str(&format!("{postal}\n"));
    }
    footer_html.push_str(&format!(
        r#"<a href="{}">Unsubscribe</a>"#,
        escape(&unsubscribe)
    ));
    footer_text.push_str(&format!("Unsubscribe: {unsubscribe}\n"));
    let html = format!(
        "<!doctype html><html><body>{body}<p style=\"margin-top:24px;font-size:12px;color:#666\">{footer_html}</p>\
         <img src=\"{}\" width=\"1\" height=\"1\" alt=\"\" style=\"display:block\"></body></html>",
        escape(&open_pixel_url(settings, envelope.token))
    );
    let text = format!("{}\n\n--\n{footer_text}", html_to_text(&personal));
    let domain = envelope
        .from_email
        .rsplit_once('@')
        .map_or("localhost", |(_, domain)| domain);
    let mailto = format!(
        "mailto:unsubscribe@{}?subject=unsubscribe",
        settings.sending_domain()
    );
    Composed {
        from_name: envelope.from_name.to_string(),
        from_email: envelope.from_email.to_string(),
        reply_to: envelope.reply_to.map(str::to_string),
        to_email: envelope.to_email.to_string(),
        subject,
        body: personal,
        html,
        text,
        message_id: format!("{}@{domain}", envelope.token),
        headers: vec![
            (
                "List-Unsubscribe".to_string(),
                format!("<{unsubscribe}>, <{mailto}>"),
            ),
            (
                "List-Unsubscribe-Post".to_string(),
                "List-Unsubscribe=One-Click".to_string(),
            ),
        ],
    }
}

/// Every `href="http(s)://..."` replaced by `rewrite(url)`; mailto and other links stay.
fn rewrite_links(html: &str, rewrite: impl Fn(&str) -> String) -> String {
    let mut output = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("href=\"") {
        let value_start = start + "href=\"".len();
        output.push_str(&rest[..value_start]);
        let Some(length) = rest[value_start..].find('"') else {
            rest = &rest[value_start..];
            break;
        };
        let url = unescape(&rest[value_start..value_start + length]);
        if url.starts_with("http://") || url.starts_with("https://") {
            output.push_str(&escape(&rewrite(&url)));
        } else {
            output.push_str(&rest[value_start..value_start + length]);
        }
        rest = &rest[value_start + length..];
    }
    output.push_str(rest);
    output
}

/// Readable text of the HTML body: paragraphs and breaks become new lines, links keep their address.
fn html_to_text(html: &str) -> String {
    let mut text = html
        .replace("<br>", "\n")
        .replace("<br/>", "\n")
        .replace("<br />", "\n")
        .replace("</p>", "\n\n")
        .replace("<li>", "- ")
        .replace("</li>", "\n");
    // "<a href="url">label</a>" → "label (url)"
    while let Some(start) = text.find("<a href=\"") {
        let Some(end_quote) = text[start + 9..].find('"') else {
            break;
        };
        let url = text[start + 9..start + 9 + end_quote].to_string();
        let Some(close) = text[start..].find("</a>") else {
            break;
        };
        let inner_start = text[start..].find('>').map_or(start, |i| start + i + 1);
        let label = text[inner_start..start + close].to_string();
        text.replace_range(start..start + close + 4, &format!("{label} ({url})"));
    }
    let stripped = crate::templates::html_text(&text);
    let decoded = unescape(&stripped);
    decoded
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

fn escape(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}

fn unescape(text: &str) -> String {
    html_escape::decode_html_entities(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;
    use crate::links::verify_click;

    fn settings() -> Settings {
        let mut settings = Settings::default();
        settings.security.secret_key = Secret::new("k".repeat(64));
        settings.http.public_url = "https://out.example.com".into();
        settings
    }

    fn envelope() -> Envelope<'static> {
        Envelope {
            from_name: "Ada Baker",
            from_email: "ada@bakery.example",
            reply_to: Some("replies@bakery.example"),
            to_email: "owner@cafe.example",
            postal_address: "Bakery Street 1\n00100 Helsinki",
            token: "tok123",
        }
    }

    #[test]
    fn personalises_escapes_tracks_and_adds_the_footer_and_headers() {
        let recipient = Recipient {
            business_name: Some("Ben & Jerry's <Cafe>".into()),
            ..Recipient::default()
        };
        let composed = compose(
            &settings(),
            &envelope(),
            "Hello {{businessName}}",
            r#"<p>Hi [business name],</p><p>See <a href="https://bakery.example/menu?a=1&amp;b=2">our menu</a> or <a href="mailto:ada@bakery.example">write</a>.</p>"#,
            &recipient,
        );
        assert_eq!(composed.subject, "Hello Ben & Jerry's <Cafe>");
        assert!(
            composed.html.contains("Hi Ben &amp; Jerry's &lt;Cafe&gt;,"),
            "{}",
            composed.html
        );
        // The web link goes through the signed click URL, which takes back exactly the original address.
        let start = composed
            .html
            .find("https://out.example.com/t/c/tok123?")
            .expect(&composed.html);
        let href = &composed.html[start..start + composed.html[start..].find('"').unwrap()];
        let href = unescape(href);
        let query: std::collections::HashMap<String, String> = url::Url::parse(&href)
            .unwrap()
            .query_pairs()
            .into_owned()
            .collect();
        assert_eq!(query["u"], "https://bakery.example/menu?a=1&b=2");
        assert!(verify_click(
            &settings(),
            "tok123",
            &query["u"],
            &query["s"]
        ));
        assert!(!verify_click(
            &settings(),
            "tok123",
            "https://evil.example/",
            &query["s"]
        ));
        assert!(
            composed
                .html
                .contains(r#"href="mailto:ada@bakery.example""#)
        );
        assert!(
            composed
                .html
                .contains("https://out.example.com/t/o/tok123.gif?s=")
        );
        assert!(composed.html.contains("Bakery Street 1<br>00100 Helsinki<br><a href=\"https://out.example.com/unsubscribe?email=owner%40cafe.example&amp;signature="));
        assert!(composed.text.starts_with("Hi Ben & Jerry's <Cafe>,\n\nSee our menu (https://bakery.example/menu?a=1&b=2) or write (mailto:ada@bakery.example)."), "{}", composed.text);
        assert!(composed.text.contains("\n--\nBakery Street 1\n00100 Helsinki\nUnsubscribe: https://out.example.com/unsubscribe?email=owner%40cafe.example&signature="));
        assert_eq!(composed.message_id, "tok123@bakery.example");
        assert_eq!(composed.headers[0].0, "List-Unsubscribe");
        assert!(composed.headers[0].1.starts_with(
            "<https://out.example.com/unsubscribe?email=owner%40cafe.example&signature="
        ));
        assert!(
            composed.headers[0]
                .1
                .ends_with(", <mailto:unsubscribe@hello.out.example.com?subject=unsubscribe>")
        );
        assert_eq!(
            composed.headers[1],
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into()
            )
        );
    }

    #[test]
    fn header_injection_through_a_subject_is_impossible() {
        let recipient = Recipient {
            business_name: Some("Evil\r\nBcc: victim@example.com".into()),
            ..Recipient::default()
        };
        let composed = compose(
            &settings(),
            &envelope(),
            "Hi {{businessName}}",
            "<p>x</p>",
            &recipient,
        );
        assert!(!composed.subject.contains('\n') && !composed.subject.contains('\r'));
    }
}
