//! One outgoing email composed for its recipient: the template personalised (`templates::render_html`: values as
//! text, unsafe links dropped), links rewritten to signed click-tracking URLs when the campaign tracks clicks, an
//! open pixel when it tracks opens, a footer with the sender's postal address and the unsubscribe link (CAN-SPAM), a
//! plain-text alternative, a Message-ID on the sender's domain, and the RFC 8058 one-click `List-Unsubscribe`
//! headers. A plain-text campaign (issue 81) gets the text alone: no HTML part and no pixel, its links as written
//! or, when it tracks clicks, each address in the text rewritten. Pure: the same message row composes the same bytes
//! on a retry.

use crate::Settings;
use crate::campaigns::personalise::{Recipient, render, render_html};
use crate::platform::faults;
use crate::platform::text::find_ignore_ascii_case;
use crate::sending::links::Links;

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
    /// Empty for a plain-text message: it has no HTML part.
    pub html: String,
    pub text: String,
    /// Without angle brackets: `token@domain`.
    pub message_id: String,
    /// `List-Unsubscribe` and `List-Unsubscribe-Post`, and for a follow-up `In-Reply-To` and `References`.
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
    /// The Message-ID (without angle brackets) this message answers: a follow-up names its sequence's first email,
    /// so mail programs thread them.
    pub in_reply_to: Option<&'a str>,
    /// The first email of the thread when `in_reply_to` is a later one (an answer to a reply): named first in
    /// `References`.
    pub thread_start: Option<&'a str>,
    /// The HTML carries the open pixel (its campaign tracks opens; never in plain text).
    pub open_pixel: bool,
    /// Links go through the signed click-tracking redirect (else they stay as written).
    pub track_clicks: bool,
    /// Plain text only: no HTML part, no pixel.
    pub plain_text: bool,
}

/// Composes the template's subject and HTML body for `recipient`.
pub fn compose(
    settings: &Settings,
    envelope: &Envelope<'_>,
    subject: &str,
    body_html: &str,
    recipient: &Recipient,
) -> Composed {
    faults::point("compose", envelope.to_email);
    let seed = envelope.to_email;
    let subject = render(subject, recipient, seed).text;
    let subject = if subject.contains(['\r', '\n']) {
        subject.replace(['\r', '\n'], " ")
    } else {
        subject
    };
    let personal = render_html(body_html, recipient, seed).text;
    let links = Links::new(settings);
    let unsubscribe = links.unsubscribe(envelope.to_email, envelope.from_name);
    let postal = envelope.postal_address.trim();
    let (html, text) = if envelope.plain_text {
        let text = html_to_text(&personal);
        let text = if envelope.track_clicks {
            rewrite_text_links(&text, |url| links.click(envelope.token, url))
        } else {
            text
        };
        (String::new(), with_text_footer(text, postal, &unsubscribe))
    } else {
        let body = if envelope.track_clicks {
            rewrite_links(&personal, |url| links.click(envelope.token, url))
        } else {
            personal.clone()
        };
        let html = html_part(&body, postal, &unsubscribe, || {
            envelope
                .open_pixel
                .then(|| links.open_pixel(envelope.token))
        });
        (
            html,
            with_text_footer(html_to_text(&personal), postal, &unsubscribe),
        )
    };
    let domain = envelope
        .from_email
        .rsplit_once('@')
        .map_or("localhost", |(_, domain)| domain);
    // Only the signed one-click URL (RFC 8058): a mailto would name an address nothing here reads, and a recipient
    // whose client used it would never be unsubscribed. A `List-Id` (RFC 2919) on the sender's domain goes with it:
    // an unsubscribe header without one is what SpamAssassin's LIST_PARTIAL_SHORT_MSG scores (1 point on a short
    // HTML email, issue 81).
    let mut headers = vec![
        (
            "List-Unsubscribe".to_string(),
            ["<", &unsubscribe, ">"].concat(),
        ),
        (
            "List-Unsubscribe-Post".to_string(),
            "List-Unsubscribe=One-Click".to_string(),
        ),
        ("List-Id".to_string(), ["<outreach.", domain, ">"].concat()),
    ];
    if let Some(original) = envelope.in_reply_to.filter(|id| !id.is_empty()) {
        headers.push(("In-Reply-To".to_string(), format!("<{original}>")));
        let references: Vec<String> = envelope
            .thread_start
            .filter(|start| !start.is_empty() && *start != original)
            .into_iter()
            .chain(std::iter::once(original))
            .map(|id| format!("<{id}>"))
            .collect();
        headers.push(("References".to_string(), references.join(" ")));
    }
    Composed {
        from_name: envelope.from_name.to_string(),
        from_email: envelope.from_email.to_string(),
        reply_to: envelope.reply_to.map(str::to_string),
        to_email: envelope.to_email.to_string(),
        subject,
        body: personal,
        html,
        text,
        message_id: [envelope.token, "@", domain].concat(),
        headers,
    }
}

/// The HTML part: the body, a footer with the postal address and the unsubscribe link, and the open pixel when
/// `pixel` gives one. Written in place, each part once: every message of a campaign is composed here.
fn html_part(
    body: &str,
    postal: &str,
    unsubscribe: &str,
    pixel: impl FnOnce() -> Option<String>,
) -> String {
    let mut html = String::with_capacity(body.len() + 2 * (postal.len() + unsubscribe.len()) + 512);
    html.push_str("<!doctype html><html><body>");
    html.push_str(body);
    html.push_str(r#"<p style="margin-top:24px;font-size:12px;color:#666">"#);
    if !postal.is_empty() {
        for line in postal.split('\n') {
            push_escaped(&mut html, line);
            html.push_str("<br>");
        }
    }
    html.push_str(r#"<a href=""#);
    push_escaped(&mut html, unsubscribe);
    html.push_str(r#"">Unsubscribe</a></p>"#);
    if let Some(pixel) = pixel() {
        html.push_str(r#"<img src=""#);
        push_escaped(&mut html, &pixel);
        html.push_str(r#"" width="1" height="1" alt="" style="display:block">"#);
    }
    html.push_str("</body></html>");
    html
}

/// The text with its footer: the postal address and the unsubscribe link.
fn with_text_footer(mut text: String, postal: &str, unsubscribe: &str) -> String {
    text.reserve(postal.len() + unsubscribe.len() + 24);
    text.push_str("\n\n--\n");
    if !postal.is_empty() {
        text.push_str(postal);
        text.push('\n');
    }
    text.push_str("Unsubscribe: ");
    text.push_str(unsubscribe);
    text.push('\n');
    text
}

/// Every `http(s)://` address in plain text replaced by `rewrite(address)`: an address runs to the next space or
/// angle bracket, less the punctuation that ends a sentence or closes a parenthesis after it.
fn rewrite_text_links(text: &str, rewrite: impl Fn(&str) -> String) -> String {
    let mut output = String::with_capacity(text.len() * 2);
    let mut rest = text;
    loop {
        let next = [rest.find("https://"), rest.find("http://")]
            .into_iter()
            .flatten()
            .min();
        let Some(start) = next else { break };
        output.push_str(&rest[..start]);
        let tail = &rest[start..];
        let run = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"'))
            .unwrap_or(tail.len());
        let address = tail[..run].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'']);
        let scheme_only = address == "https://" || address == "http://";
        if scheme_only {
            output.push_str(address);
        } else {
            output.push_str(&rewrite(address));
        }
        rest = &tail[address.len()..];
    }
    output.push_str(rest);
    output
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
            push_escaped(&mut output, &rewrite(&url));
        } else {
            output.push_str(&rest[value_start..value_start + length]);
        }
        rest = &rest[value_start + length..];
    }
    output.push_str(rest);
    output
}

/// Readable text of the HTML body: paragraphs and breaks become new lines, list items dashes, links keep their
/// address after the label; other tags, comments, and the content of `script` and `style` are dropped. One pass
/// (each message of a campaign goes through it), then entities are decoded.
pub fn html_to_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    // Each open link: its address, and where its text starts in `text`.
    let mut links: Vec<(Option<&str>, usize)> = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let Some(length) = tag_length(rest) else {
            // A lone '<' is text.
            text.push('<');
            rest = &rest[1..];
            continue;
        };
        let tag = &rest[1..length - 1];
        rest = &rest[length..];
        let closing = tag.starts_with('/');
        let mut lowercase = [0u8; TAG_NAME_ACTED_ON];
        match (tag_name(tag, &mut lowercase), closing) {
            ("br", _) => text.push('\n'),
            ("p", true) => text.push_str("\n\n"),
            ("li", false) => text.push_str("- "),
            ("li", true) => text.push('\n'),
            ("a", false) => links.push((attribute(tag, "href"), text.len())),
            ("a", true) => {
                // A link whose text is its own address says it once (issue 33.12: `https://x (https://x)`).
                if let Some((Some(url), start)) = links.pop()
                    && !same_address(&unescape(text[start..].trim()), &unescape(url))
                {
                    text.push_str(" (");
                    text.push_str(url);
                    text.push(')');
                }
            }
            (name @ ("script" | "style"), false) => {
                let end = format!("</{name}");
                rest = find_ignore_ascii_case(rest, &end, 0).map_or("", |at| &rest[at..]);
            }
            _ => {}
        }
    }
    text.push_str(rest);
    let decoded = unescape(&text);
    let mut lines = String::with_capacity(decoded.len());
    for line in decoded.lines() {
        lines.push_str(line.trim_end());
        lines.push('\n');
    }
    // Trimmed in place.
    lines.truncate(lines.trim_end().len());
    lines.drain(..lines.len() - lines.trim_start().len());
    lines
}

/// The longest tag name `html_to_text` acts on (`script`).
const TAG_NAME_ACTED_ON: usize = 6;

/// A tag's name (after a closing '/'), lowercased into `buffer`; empty when it is longer than any name acted on.
fn tag_name<'a>(tag: &str, buffer: &'a mut [u8; TAG_NAME_ACTED_ON]) -> &'a str {
    let name = tag.trim_start_matches('/').as_bytes();
    let length = name
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    let Some(lowercase) = buffer.get_mut(..length) else {
        return "";
    };
    lowercase.copy_from_slice(&name[..length]);
    lowercase.make_ascii_lowercase();
    std::str::from_utf8(lowercase).unwrap_or_default()
}

/// Whether a link's text names its own address (with or without the scheme, `www.` or a trailing slash).
/// Compared in place, without lowercased copies (every link of every message goes through this).
fn same_address(text: &str, url: &str) -> bool {
    fn strip_all<'a>(mut address: &'a str, prefix: &str) -> &'a str {
        while let Some(rest) = address.strip_prefix(prefix) {
            address = rest;
        }
        address
    }
    fn bare(address: &str) -> &str {
        let address = strip_all(address, "https://");
        let address = strip_all(address, "http://");
        let address = strip_all(address, "mailto:");
        strip_all(address, "www.").trim_end_matches('/')
    }
    !text.is_empty() && bare(text).eq_ignore_ascii_case(bare(url))
}

/// The length of the tag at the start of `html` (up to and including its '>'), quotes respected; `None` when it is
/// not a tag.
fn tag_length(html: &str) -> Option<usize> {
    let bytes = html.as_bytes();
    if !bytes
        .get(1)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'/')
    {
        return None;
    }
    let mut quote = None;
    for (index, &byte) in bytes.iter().enumerate().skip(1) {
        match (quote, byte) {
            (None, b'"' | b'\'') => quote = Some(byte),
            (Some(open), _) if byte == open => quote = None,
            (None, b'>') => return Some(index + 1),
            _ => {}
        }
    }
    None
}

/// A double- or single-quoted attribute's value inside a tag (still entity-encoded).
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find(name) {
        let start = from + found;
        from = start + name.len();
        let before = lower[..start].chars().next_back();
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let after = lower[from..].trim_start();
        let Some(value) = after.strip_prefix('=') else {
            continue;
        };
        let value_start = lower.len() - value.trim_start().len();
        let quote = tag[value_start..].chars().next()?;
        if quote != '"' && quote != '\'' {
            return None;
        }
        let value = &tag[value_start + 1..];
        return value.find(quote).map(|end| &value[..end]);
    }
    None
}

/// `text` for a double-quoted attribute (`&`, `<`, `>` and `"` as entities), appended to `output`.
fn push_escaped(output: &mut String, text: &str) {
    html_escape::encode_double_quoted_attribute_to_string(text, output);
}

fn unescape(text: &str) -> String {
    html_escape::decode_html_entities(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::config::Secret;
    use crate::sending::links::verify_click;

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
            in_reply_to: None,
            thread_start: None,
            open_pixel: true,
            track_clicks: true,
            plain_text: false,
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
        assert!(composed.html.contains(
            "Bakery Street 1<br>00100 Helsinki<br><a href=\"https://out.example.com/unsubscribe?t="
        ));
        assert!(composed.text.starts_with("Hi Ben & Jerry's <Cafe>,\n\nSee our menu (https://bakery.example/menu?a=1&b=2) or write (mailto:ada@bakery.example)."), "{}", composed.text);
        assert!(composed.text.contains("\n--\nBakery Street 1\n00100 Helsinki\nUnsubscribe: https://out.example.com/unsubscribe?t="));
        // The address is in no link (issue 81): the unsubscribe token is opaque.
        for part in [&composed.html, &composed.text, &composed.headers[0].1] {
            assert!(
                !part.contains("owner") && !part.contains("cafe.example"),
                "{part}"
            );
        }
        assert_eq!(composed.message_id, "tok123@bakery.example");
        assert_eq!(composed.headers[0].0, "List-Unsubscribe");
        assert!(
            composed.headers[0]
                .1
                .starts_with("<https://out.example.com/unsubscribe?t=")
        );
        // Issue 33.11: no mailto to an address nothing reads; the one URL, whole.
        assert!(
            !composed.headers[0].1.contains("mailto:"),
            "{}",
            composed.headers[0].1
        );
        assert!(composed.headers[0].1.ends_with('>') && !composed.headers[0].1.contains(", "));
        assert_eq!(
            composed.headers[1],
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into()
            )
        );
        assert_eq!(
            composed.headers[2],
            ("List-Id".into(), "<outreach.bakery.example>".into())
        );
    }

    #[test]
    fn plain_text_has_no_html_part_no_pixel_and_links_as_written_unless_clicks_are_tracked() {
        let body = r#"<p>Hi,</p><p>See <a href="https://bakery.example/menu">our menu</a> or https://bakery.example/shop.</p>"#;
        let plain = Envelope {
            plain_text: true,
            track_clicks: false,
            ..envelope()
        };
        let composed = compose(&settings(), &plain, "Hello", body, &Recipient::default());
        assert_eq!(composed.html, "");
        assert!(!composed.text.contains("/t/o/") && !composed.text.contains("/t/c/"));
        assert!(
            composed.text.starts_with(
                "Hi,\n\nSee our menu (https://bakery.example/menu) or https://bakery.example/shop."
            ),
            "{}",
            composed.text
        );
        assert!(
            composed
                .text
                .contains("Unsubscribe: https://out.example.com/unsubscribe?t=")
        );

        let tracked = Envelope {
            track_clicks: true,
            ..plain
        };
        let composed = compose(&settings(), &tracked, "Hello", body, &Recipient::default());
        assert_eq!(composed.html, "");
        let links: Vec<&str> = composed
            .text
            .split_whitespace()
            .filter(|word| word.contains("/t/c/"))
            .collect();
        assert_eq!(links.len(), 2, "{}", composed.text);
        for (link, address) in links
            .iter()
            .zip(["https://bakery.example/menu", "https://bakery.example/shop"])
        {
            let link = link.trim_start_matches('(').trim_end_matches([')', '.']);
            let query: std::collections::HashMap<String, String> = url::Url::parse(link)
                .unwrap()
                .query_pairs()
                .into_owned()
                .collect();
            assert_eq!(query["u"], address);
            assert!(verify_click(&settings(), "tok123", address, &query["s"]));
        }
        // The unsubscribe link is never a tracked one.
        assert!(
            composed
                .text
                .contains("Unsubscribe: https://out.example.com/unsubscribe?t=")
        );

        // HTML without click tracking: links as written, the pixel as asked.
        let html = Envelope {
            track_clicks: false,
            open_pixel: false,
            ..envelope()
        };
        let composed = compose(&settings(), &html, "Hello", body, &Recipient::default());
        assert!(
            composed
                .html
                .contains(r#"href="https://bakery.example/menu""#)
        );
        assert!(!composed.html.contains("/t/c/") && !composed.html.contains("/t/o/"));
    }

    #[test]
    fn the_text_part_reads_like_the_html() {
        let html = "<!-- note --><style>p { color: red }</style><p>Hi <b>Ben</b> &amp; co,</p>\
            <ul><li>Bread</li><li>Buns &lt;3</li></ul><p>See <a class='x' href='https://a.example/?q=1&amp;r=2'>our \
            <i>menu</i></a>.<br>1 < 2</p>";
        assert_eq!(
            html_to_text(html),
            "Hi Ben & co,\n\n- Bread\n- Buns <3\nSee our menu (https://a.example/?q=1&r=2).\n1 < 2"
        );
    }

    #[test]
    fn tag_names_are_read_whatever_their_case_and_longer_ones_are_left_alone() {
        let html = "<P>One</P><BR/><LI>Two</LI><Script>x()</SCRIPT><paragraph>three</paragraph><brr>four<lis>five\
            <STYLE>p {}</style>six<A HREF=\"https://a.example\">a</A>";
        assert_eq!(
            html_to_text(html),
            "One\n\n\n- Two\nthreefourfivesixa (https://a.example)"
        );
    }

    #[test]
    fn a_link_whose_text_is_its_address_says_it_once() {
        let html = "<p>Visit <a href=\"https://bakery.example/\">https://bakery.example</a>, \
            <a href=\"https://www.bakery.example/menu\">bakery.example/menu</a> or \
            <a href=\"mailto:ada@bakery.example\">ada@bakery.example</a>, \
            <a href=\"https://bakery.example/shop\">Bakery.Example/Shop</a> or \
            <a href=\"https://bakery.example/about\">bakery.example</a>.</p>";
        assert_eq!(
            html_to_text(html),
            "Visit https://bakery.example, bakery.example/menu or ada@bakery.example, Bakery.Example/Shop or \
             bakery.example (https://bakery.example/about)."
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
