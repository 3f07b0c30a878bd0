//! The RFC 5322 text of a composed message, written in one pass: the headers (non-ASCII names and subjects as
//! RFC 2047 encoded words, long values folded), then a `multipart/alternative` body with the plain text and the
//! HTML, both quoted-printable (a plain-text message: its one text part). Every message of a campaign goes through this, so it avoids a general MIME builder's
//! work; the boundary starts with `=_`, which quoted-printable text can never contain.

use std::borrow::Cow;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use lettre::Address;

use crate::sending::compose::Composed;

/// Lines are folded near this length (RFC 5322 2.1.1 recommends 78).
const LINE: usize = 76;

/// The message's text (CRLF line ends, ASCII unless an address is not) and its sender and recipient addresses.
pub struct Rendered {
    pub text: String,
    pub from: Address,
    pub to: Address,
}

/// Why a composed message cannot be written out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("{0} is not a valid address")]
    Address(String),
    #[error("header name {0}")]
    HeaderName(String),
}

/// The message as it goes to an SMTP server or the Gmail API, stamped with `date`.
pub fn render(
    composed: &Composed,
    date: chrono::DateTime<chrono::Utc>,
) -> Result<Rendered, MessageError> {
    let address = |text: &str| {
        Address::from_str(text.trim()).map_err(|_| MessageError::Address(text.to_string()))
    };
    let from = address(&composed.from_email)?;
    let to = address(&composed.to_email)?;
    let reply_to = composed.reply_to.as_deref().map(address).transpose()?;
    let token = composed
        .message_id
        .split_once('@')
        .map_or(composed.message_id.as_str(), |(token, _)| token);
    let mut boundary = String::with_capacity(token.len() + 2);
    boundary.push_str("=_");
    boundary.extend(
        token
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_'),
    );
    let mut text = String::with_capacity(composed.html.len() + composed.text.len() + 1_024);
    header(&mut text, "Date", &date.to_rfc2822());
    let from_name = composed.from_name.trim();
    if from_name.is_empty() {
        header(&mut text, "From", from.as_ref());
    } else {
        text.push_str("From: ");
        display_name(&mut text, from_name, "From: ".len());
        text.push_str(" <");
        text.push_str(from.as_ref());
        text.push_str(">\r\n");
    }
    header(&mut text, "To", to.as_ref());
    if let Some(reply_to) = &reply_to {
        header(&mut text, "Reply-To", reply_to.as_ref());
    }
    text.push_str("Subject: ");
    unstructured(&mut text, &composed.subject, "Subject: ".len());
    text.push_str("\r\n");
    text.push_str("Message-ID: <");
    text.push_str(&composed.message_id);
    text.push_str(">\r\n");
    for (name, value) in &composed.headers {
        if !name.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
            return Err(MessageError::HeaderName(name.to_string()));
        }
        text.push_str(name);
        text.push_str(": ");
        unstructured(&mut text, value, name.len() + 2);
        text.push_str("\r\n");
    }
    if composed.html.is_empty() {
        // A plain-text message (issue 81): one text part, no alternative.
        text.push_str(
            "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Content-Transfer-Encoding: quoted-printable\r\n\r\n",
        );
        quoted_printable(&mut text, &composed.text);
        return Ok(Rendered { text, from, to });
    }
    text.push_str("MIME-Version: 1.0\r\nContent-Type: multipart/alternative;\r\n boundary=\"");
    text.push_str(&boundary);
    text.push_str("\"\r\n\r\n");
    for (kind, body) in [("plain", &composed.text), ("html", &composed.html)] {
        text.push_str("--");
        text.push_str(&boundary);
        text.push_str("\r\nContent-Type: text/");
        text.push_str(kind);
        text.push_str("; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n");
        quoted_printable(&mut text, body);
    }
    text.push_str("--");
    text.push_str(&boundary);
    text.push_str("--\r\n");
    Ok(Rendered { text, from, to })
}

fn header(text: &mut String, name: &str, value: &str) {
    text.push_str(name);
    text.push_str(": ");
    text.push_str(value);
    text.push_str("\r\n");
}

/// A display name: a quoted string when it is plain ASCII, encoded words otherwise.
fn display_name(text: &mut String, name: &str, column: usize) {
    if is_plain(name) {
        text.push('"');
        for c in name.chars() {
            if c == '"' || c == '\\' {
                text.push('\\');
            }
            text.push(c);
        }
        text.push('"');
    } else {
        encoded_words(text, name, column);
    }
}

/// An unstructured value (a subject, a list header): folded at spaces when plain ASCII, encoded words otherwise.
/// Line breaks in the value never reach the header (no header injection).
fn unstructured(text: &mut String, value: &str, column: usize) {
    let value = if value.contains(['\r', '\n']) {
        Cow::Owned(value.replace(['\r', '\n'], " "))
    } else {
        Cow::Borrowed(value)
    };
    if !is_plain(&value) {
        encoded_words(text, &value, column);
        return;
    }
    let mut column = column;
    for (index, word) in value.split(' ').enumerate() {
        if index > 0 {
            if column + 1 + word.len() > LINE && column > 1 {
                text.push_str("\r\n");
                column = 0;
            }
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        column += word.len();
    }
}

/// Printable ASCII (and spaces, tabs) only, and nothing a reader would take for an encoded word (`=?`): a subject
/// that reads "=?utf-8?b?SGk=?=" must arrive as written, not as "Hi".
fn is_plain(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || b.is_ascii_graphic())
        && !value.contains("=?")
}

/// RFC 2047 `=?utf-8?b?...?=` words of at most 75 characters, each on its own folded line after the first; a
/// character is never split across two words.
fn encoded_words(text: &mut String, value: &str, column: usize) {
    let mut rest = value;
    let mut column = column;
    while !rest.is_empty() {
        if column > 1 && column + 16 > LINE {
            text.push_str("\r\n ");
            column = 1;
        }
        // Whole base64 quanta that fit the line and the 75-character word ("=?utf-8?b?" and "?=" take 12).
        let room = (LINE + 2).saturating_sub(column + 12).min(60);
        let mut end = rest.len().min(room / 4 * 3);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if end == 0 {
            // Not even one character fits after a long header name: it goes on the next line.
            text.push_str("\r\n ");
            column = 1;
            continue;
        }
        text.push_str("=?utf-8?b?");
        STANDARD.encode_string(&rest.as_bytes()[..end], text);
        text.push_str("?=");
        column = LINE;
        rest = &rest[end..];
    }
}

/// The bytes quoted-printable writes as they are, but for a space or tab that ends a line: printable ASCII but '=',
/// spaces and tabs. A table: each byte of every message's two bodies is looked up in it.
const AS_IS: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < table.len() {
        let value = byte as u8;
        table[byte] =
            (value.is_ascii_graphic() && value != b'=') || value == b' ' || value == b'\t';
        byte += 1;
    }
    table
};

/// Quoted-printable (RFC 2045 6.7): lines of at most 76 characters with soft breaks, `=` and bytes outside
/// printable ASCII as `=XX`, a space or tab before a line end encoded; each line ends with CRLF. Runs of bytes that
/// stay as they are go in whole (every message of a campaign goes through this).
fn quoted_printable(text: &mut String, body: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for line in body.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let bytes = line.as_bytes();
        let mut column = 0;
        let mut at = 0;
        while at < bytes.len() {
            // The bytes from here that go as they are: printable ASCII but '=', and spaces or tabs not last (a space
            // or tab that ends the line is left to be encoded).
            let mut run = bytes[at..]
                .iter()
                .position(|&byte| !AS_IS[usize::from(byte)])
                .unwrap_or(bytes.len() - at);
            if at + run == bytes.len() && run > 0 && matches!(bytes[at + run - 1], b' ' | b'\t') {
                run -= 1;
            }
            // As many of them as fit the line: a byte before the line's end keeps room for a soft break's '='.
            let ends_line = at + run == bytes.len();
            let mut taken = 0;
            while taken < run {
                let remaining = run - taken;
                let before_end = if ends_line { remaining - 1 } else { remaining };
                let mut fits = before_end.min((LINE - 1).saturating_sub(column));
                if fits == before_end && ends_line && column + fits < LINE {
                    fits = remaining;
                }
                if fits == 0 {
                    text.push_str("=\r\n");
                    column = 0;
                    continue;
                }
                // ASCII only, so any offset is a character boundary.
                text.push_str(&line[at + taken..at + taken + fits]);
                column += fits;
                taken += fits;
            }
            at += run;
            if at == bytes.len() {
                break;
            }
            let last = at + 1 == bytes.len();
            if column + 3 > LINE - usize::from(!last) {
                text.push_str("=\r\n");
                column = 0;
            }
            let byte = bytes[at];
            text.push('=');
            text.push(char::from(HEX[usize::from(byte >> 4)]));
            text.push(char::from(HEX[usize::from(byte & 0x0f)]));
            column += 3;
            at += 1;
        }
        text.push_str("\r\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MessageParser;

    fn composed() -> Composed {
        Composed {
            from_name: "Ada \"The Baker\" Lovelace".into(),
            from_email: "ada@bakery.example".into(),
            reply_to: Some("replies@bakery.example".into()),
            to_email: "owner@cafe.example".into(),
            subject:
                "Fresh bread for Café Åalto — delivered before seven every morning of the week"
                    .into(),
            body: String::new(),
            html: format!(
                "<p>Hello Café Aalto = friends,</p><p>{}</p>\n<p>Trailing space \n.dot</p>",
                "x".repeat(200)
            ),
            text: format!(
                "Hello Café Aalto = friends,\n\n{} end \n.dot",
                "y ".repeat(60)
            ),
            message_id: "tok123_-A@bakery.example".into(),
            headers: vec![
                (
                    "List-Unsubscribe".into(),
                    format!(
                        "<https://out.example/unsubscribe?email=owner%40cafe.example&signature={}>, \
                         <mailto:unsubscribe@hello.out.example?subject=unsubscribe>",
                        "s".repeat(43)
                    ),
                ),
                (
                    "List-Unsubscribe-Post".into(),
                    "List-Unsubscribe=One-Click".into(),
                ),
            ],
        }
    }

    #[test]
    fn a_mail_reader_reads_back_every_header_and_both_parts() {
        let composed = composed();
        let date = chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let rendered = render(&composed, date).unwrap();
        assert!(rendered.text.is_ascii());
        for line in rendered.text.split("\r\n") {
            // Folded wherever a space allows; a long link alone on its line stays under the 998 limit.
            let single_token = line.trim_start().split(' ').filter(|w| w.len() > 1).count() <= 2;
            assert!(
                line.len() <= 78 || (single_token && line.len() <= 998),
                "{line:?}"
            );
            assert!(!line.contains('\n') && !line.contains('\r'));
        }
        let message = MessageParser::default()
            .parse(rendered.text.as_bytes())
            .unwrap();
        assert_eq!(message.subject(), Some(composed.subject.as_str()));
        let from = message.from().unwrap().first().unwrap();
        assert_eq!(from.name(), Some("Ada \"The Baker\" Lovelace"));
        assert_eq!(from.address(), Some("ada@bakery.example"));
        assert_eq!(
            message.to().unwrap().first().unwrap().address(),
            Some("owner@cafe.example")
        );
        assert_eq!(
            message.reply_to().unwrap().first().unwrap().address(),
            Some("replies@bakery.example")
        );
        assert_eq!(message.message_id(), Some("tok123_-A@bakery.example"));
        assert_eq!(message.date().unwrap().to_timestamp(), 1_800_000_000);
        assert_eq!(
            message
                .header_raw("List-Unsubscribe")
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            composed.headers[0].1
        );
        assert_eq!(
            message.header_raw("List-Unsubscribe-Post").unwrap().trim(),
            "List-Unsubscribe=One-Click"
        );
        let text = message.body_text(0).unwrap().replace("\r\n", "\n");
        assert_eq!(text.trim_end(), composed.text);
        let html = message.body_html(0).unwrap().replace("\r\n", "\n");
        assert_eq!(html.trim_end(), composed.html);
    }

    #[test]
    fn quoted_printable_keeps_printable_bytes_and_encodes_the_rest_in_lines_of_76() {
        let encoded = |body: &str| {
            let mut text = String::new();
            quoted_printable(&mut text, body);
            text
        };
        // '=' and a space or tab that ends a line are encoded; one inside a line stays.
        assert_eq!(encoded("a = b\tc \n"), "a =3D b\tc=20\r\n\r\n");
        assert_eq!(
            encoded("trailing tab\t\r\nend "),
            "trailing tab=09\r\nend=20\r\n"
        );
        assert_eq!(encoded("caf\u{e9}"), "caf=C3=A9\r\n");
        // A soft break keeps each line at 76 characters with its '='; an encoded byte is never split.
        let long = format!("{} y", "x".repeat(80));
        assert_eq!(
            encoded(&long),
            format!("{}=\r\n{} y\r\n", "x".repeat(75), "x".repeat(5))
        );
        assert_eq!(
            encoded(&"z=".repeat(30)),
            format!(
                "{}z=\r\n{}\r\n",
                "z=3D".repeat(18),
                "=3Dz".repeat(11) + "=3D"
            )
        );
    }

    #[test]
    fn non_ascii_names_and_unparseable_addresses() {
        let mut composed = composed();
        composed.from_name = "Äijä's Bakery".into();
        composed.subject = "Hei\r\nBcc: victim@example.com".into();
        let date = chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let rendered = render(&composed, date).unwrap();
        let message = MessageParser::default()
            .parse(rendered.text.as_bytes())
            .unwrap();
        assert_eq!(
            message.from().unwrap().first().unwrap().name(),
            Some("Äijä's Bakery")
        );
        assert_eq!(message.subject(), Some("Hei  Bcc: victim@example.com"));
        assert!(message.bcc().is_none());
        composed.to_email = "not an address".into();
        assert!(matches!(
            render(&composed, date),
            Err(MessageError::Address(_))
        ));
    }
}
