//! What comes back to a sender's mailbox, told apart (issue: replies, bounces and auto-replies): delivery status
//! notifications (RFC 3464 `multipart/report; report-type=delivery-status`, and the plain-text bounces some servers
//! still send), hard (5.x.x) or soft (4.x.x) with the reason; automatic answers (`Auto-Submitted`, `X-Autoreply`,
//! `X-Autorespond`, `Precedence: auto_reply`, out-of-office subjects), which are recorded but are not replies; and
//! replies. Every kind carries the Message-IDs it refers to (In-Reply-To, References, and a bounce's original
//! message), so it can be matched to the message that was sent. The content is untrusted data: it is read, never
//! followed.

use mail_parser::{HeaderValue, MessageParser, MimeHeaders, PartType};

/// What an incoming message is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Reply,
    AutoReply,
    Bounce {
        /// A permanent failure (5.x.x); otherwise temporary (4.x.x).
        hard: bool,
        /// The enhanced status code, e.g. `5.1.1`.
        status: String,
        /// The receiving server's words (Diagnostic-Code), else the action.
        reason: String,
        /// The address that failed (Final-Recipient), when the report names it.
        recipient: Option<String>,
    },
}

/// An incoming message, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbound {
    pub kind: Kind,
    /// The sender's address, lowercased.
    pub from: Option<String>,
    /// Message-IDs this message refers to, without angle brackets: In-Reply-To, References, and for a bounce the
    /// original message's.
    pub refers_to: Vec<String>,
    pub subject: String,
    /// The plain-text body (from the HTML part when there is no text part).
    pub text: String,
    /// Its own Message-ID, without angle brackets, which an answer to it names.
    pub message_id: Option<String>,
}

/// Subjects of automatic answers in the languages seen most.
const AUTO_SUBJECTS: &[&str] = &[
    "out of office",
    "out of the office",
    "automatic reply",
    "auto reply",
    "auto-reply",
    "autoreply",
    "auto:",
    "away from the office",
    "abwesenheitsnotiz",
    "réponse automatique",
    "respuesta automática",
    "poissaolo",
    "automaattinen vastaus",
    "frånvaro",
];

/// Subjects of bounces that are not RFC 3464 reports.
const BOUNCE_SUBJECTS: &[&str] = &[
    "undelivered mail returned to sender",
    "delivery status notification (failure)",
    "mail delivery failed",
    "undeliverable:",
    "delivery failure",
    "returned mail",
    "failure notice",
];

impl Kind {
    /// The stored name: `reply`, `auto_reply` or `bounce`.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Reply => "reply",
            Kind::AutoReply => "auto_reply",
            Kind::Bounce { .. } => "bounce",
        }
    }
}

/// Reads a raw RFC 5322 message; None when it cannot be parsed at all. The parser panics on some malformed
/// multiparts (mail-parser 0.11: "Invalid part ID, could not find multipart"), and a stranger's mail must never stop
/// the reader or the webhook: such a message counts as one that cannot be parsed.
pub fn read(raw: &[u8]) -> Option<Inbound> {
    std::panic::catch_unwind(|| read_unguarded(raw))
        .ok()
        .flatten()
}

fn read_unguarded(raw: &[u8]) -> Option<Inbound> {
    let message = MessageParser::default().parse(raw)?;
    let from = message
        .from()
        .and_then(|from| from.first())
        .and_then(|address| address.address())
        .map(str::to_lowercase);
    let subject = message.subject().unwrap_or_default().trim().to_string();
    let text = message
        .body_text(0)
        .map(|text| text.into_owned())
        .unwrap_or_default();
    let mut refers_to: Vec<String> = Vec::new();
    for id in ids(message.in_reply_to())
        .into_iter()
        .chain(ids(message.references()))
    {
        if !refers_to.contains(&id) {
            refers_to.push(id);
        }
    }
    let header = |name: &str| {
        message
            .header_raw(name)
            .map(|value| value.trim().to_lowercase())
    };

    let mut report = None;
    let mut original = None;
    for part in &message.parts {
        let kind = part
            .content_type()
            .map(|ct| {
                format!(
                    "{}/{}",
                    ct.ctype().to_lowercase(),
                    ct.subtype().unwrap_or_default().to_lowercase()
                )
            })
            .unwrap_or_default();
        match (kind.as_str(), &part.body) {
            ("message/delivery-status" | "message/global-delivery-status", _) => {
                report = Some(String::from_utf8_lossy(part.contents()).into_owned());
            }
            (_, PartType::Message(inner)) => {
                original = original.or(inner.message_id().and_then(message_id));
            }
            ("text/rfc822-headers", _) => {
                original = original.or(header_field(
                    &String::from_utf8_lossy(part.contents()),
                    "message-id",
                )
                .as_deref()
                .and_then(message_id));
            }
            _ => {}
        }
    }
    if let Some(original) = original
        && !refers_to.contains(&original)
    {
        refers_to.push(original);
    }

    let from_daemon = from.as_deref().is_some_and(|from| {
        let local = from.split('@').next().unwrap_or_default();
        local == "mailer-daemon" || local == "postmaster"
    });
    let lower_subject = subject.to_lowercase();
    let kind = if let Some(report) = report {
        bounce_from_report(&report)
    } else if from_daemon || BOUNCE_SUBJECTS.iter().any(|s| lower_subject.starts_with(s)) {
        bounce_from_text(&text)
    } else if header("auto-submitted").is_some_and(|value| !value.starts_with("no"))
        || header("x-autoreply").is_some()
        || header("x-autorespond").is_some()
        || header("precedence")
            .is_some_and(|value| ["auto_reply", "bulk", "junk"].contains(&value.as_str()))
        || AUTO_SUBJECTS.iter().any(|s| lower_subject.starts_with(s))
    {
        Kind::AutoReply
    } else {
        Kind::Reply
    };
    let own_id = message.message_id().and_then(message_id);
    Some(Inbound {
        kind,
        from,
        refers_to,
        subject,
        text,
        message_id: own_id,
    })
}

/// Message-IDs of an In-Reply-To or References header, without angle brackets; a malformed one is left out, since
/// it can name no message.
fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    let texts: Vec<&str> = match value {
        HeaderValue::Text(id) => vec![id.as_ref()],
        HeaderValue::TextList(list) => list.iter().map(|id| id.as_ref()).collect(),
        _ => Vec::new(),
    };
    texts.into_iter().filter_map(message_id).collect()
}

/// A Message-ID without its angle brackets, or None when it is malformed (brackets or spaces inside, or empty).
fn message_id(text: &str) -> Option<String> {
    let id = text.trim_matches(['<', '>', ' ']);
    (!id.is_empty() && !id.contains(['<', '>']) && !id.contains(char::is_whitespace))
        .then(|| id.to_string())
}

/// The value of a `Name: value` field in a header block (unfolded), case-insensitively.
fn header_field(block: &str, name: &str) -> Option<String> {
    let unfolded = block
        .replace("\r\n", "\n")
        .replace("\n ", " ")
        .replace("\n\t", " ");
    unfolded.lines().find_map(|line| {
        let (field, value) = line.split_once(':')?;
        field
            .trim()
            .eq_ignore_ascii_case(name)
            .then(|| value.trim().to_string())
    })
}

/// RFC 3464: the first recipient block's Status, Diagnostic-Code, Action and Final-Recipient.
fn bounce_from_report(report: &str) -> Kind {
    let status = header_field(report, "status").unwrap_or_default();
    let action = header_field(report, "action")
        .unwrap_or_default()
        .to_lowercase();
    let reason = header_field(report, "diagnostic-code")
        .map(|code| strip_type(&code))
        .unwrap_or_else(|| format!("Delivery {action}"));
    let recipient = header_field(report, "final-recipient")
        .or_else(|| header_field(report, "original-recipient"))
        .map(|recipient| strip_type(&recipient).to_lowercase());
    // A report without a status code counts as permanent when its action is "failed".
    let hard = status.starts_with('5') || (!status.starts_with('4') && action == "failed");
    Kind::Bounce {
        hard,
        status,
        reason,
        recipient,
    }
}

/// "smtp; 550 5.1.1 ..." → "550 5.1.1 ...", "rfc822; a@b" → "a@b".
fn strip_type(value: &str) -> String {
    value
        .split_once(';')
        .map_or(value, |(_, rest)| rest)
        .trim()
        .to_string()
}

/// A bounce without a report: the first enhanced status code in the text decides, permanent when there is none.
fn bounce_from_text(text: &str) -> Kind {
    let code = text
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .find(|word| {
            let parts: Vec<&str> = word
                .trim_end_matches(['.', ',', ';', ':'])
                .split('.')
                .collect();
            parts.len() == 3
                && matches!(parts[0], "4" | "5")
                && parts[1..]
                    .iter()
                    .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
        });
    let status = code
        .map(|code| code.trim_end_matches(['.', ',', ';', ':']).to_string())
        .unwrap_or_default();
    let reason = text
        .lines()
        .map(str::trim)
        .find(|line| !status.is_empty() && line.contains(status.as_str()))
        .or_else(|| text.lines().map(str::trim).find(|line| !line.is_empty()))
        .unwrap_or("The message could not be delivered")
        .chars()
        .take(300)
        .collect();
    Kind::Bounce {
        hard: !status.starts_with('4'),
        status,
        reason,
        recipient: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HARD_BOUNCE: &str = "From: Mail Delivery System <MAILER-DAEMON@mx.cafe.example>\r\n\
To: ada@bakery.example\r\n\
Subject: Undelivered Mail Returned to Sender\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"B1\"\r\n\
\r\n\
--B1\r\n\
Content-Type: text/plain\r\n\
\r\n\
I'm sorry to have to inform you that your message could not be delivered.\r\n\
--B1\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; mx.cafe.example\r\n\
\r\n\
Final-Recipient: rfc822; nobody@cafe.example\r\n\
Action: failed\r\n\
Status: 5.1.1\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <nobody@cafe.example>: Recipient address\r\n\x20rejected: User unknown\r\n\
--B1\r\n\
Content-Type: text/rfc822-headers\r\n\
\r\n\
From: Ada <ada@bakery.example>\r\n\
To: nobody@cafe.example\r\n\
Message-ID: <m-41.abc@bakery.example>\r\n\
Subject: Fresh bread\r\n\
--B1--\r\n";

    const SOFT_BOUNCE: &str = "From: postmaster@mx.full.example\r\n\
Subject: Delivery Status Notification (Delay)\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"B2\"\r\n\
\r\n\
--B2\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Final-Recipient: rfc822;owner@full.example\r\n\
Action: delayed\r\n\
Status: 4.2.2\r\n\
Diagnostic-Code: smtp; 452 4.2.2 Mailbox full\r\n\
--B2\r\n\
Content-Type: message/rfc822\r\n\
\r\n\
From: ada@bakery.example\r\n\
Message-ID: <m-42.abc@bakery.example>\r\n\
Subject: Fresh bread\r\n\
\r\n\
Hello\r\n\
--B2--\r\n";

    #[test]
    fn delivery_reports_are_hard_or_soft_bounces_of_their_original_message() {
        let hard = read(HARD_BOUNCE.as_bytes()).unwrap();
        assert_eq!(
            hard.kind,
            Kind::Bounce {
                hard: true,
                status: "5.1.1".into(),
                reason: "550 5.1.1 <nobody@cafe.example>: Recipient address rejected: User unknown"
                    .into(),
                recipient: Some("nobody@cafe.example".into()),
            }
        );
        assert_eq!(hard.refers_to, vec!["m-41.abc@bakery.example".to_string()]);
        let soft = read(SOFT_BOUNCE.as_bytes()).unwrap();
        match soft.kind {
            Kind::Bounce {
                hard,
                status,
                reason,
                ..
            } => {
                assert!(!hard);
                assert_eq!(
                    (status.as_str(), reason.as_str()),
                    ("4.2.2", "452 4.2.2 Mailbox full")
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(soft.refers_to, vec!["m-42.abc@bakery.example".to_string()]);
    }

    #[test]
    fn plain_text_bounces_take_their_status_from_the_text() {
        let raw = "From: MAILER-DAEMON@old.example\r\nSubject: failure notice\r\n\r\n\
Hi. This is the qmail-send program.\r\n<gone@old.example>:\r\n550 5.7.1 Mailbox disabled for this recipient\r\n";
        match read(raw.as_bytes()).unwrap().kind {
            Kind::Bounce {
                hard,
                status,
                reason,
                ..
            } => {
                assert!(hard);
                assert_eq!(status, "5.7.1");
                assert_eq!(reason, "550 5.7.1 Mailbox disabled for this recipient");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn automatic_answers_are_not_replies() {
        let cases = [
            "From: a@cafe.example\r\nAuto-Submitted: auto-replied\r\nSubject: Re: Fresh bread\r\n\r\nAway\r\n",
            "From: a@cafe.example\r\nX-Autoreply: yes\r\nSubject: Re: Fresh bread\r\n\r\nAway\r\n",
            "From: a@cafe.example\r\nPrecedence: auto_reply\r\nSubject: Re: Fresh bread\r\n\r\nAway\r\n",
            "From: a@cafe.example\r\nSubject: Out of Office: Fresh bread\r\n\r\nBack on Monday\r\n",
            "From: a@cafe.example\r\nSubject: Automatic reply: Fresh bread\r\n\r\nBack on Monday\r\n",
        ];
        for raw in cases {
            assert_eq!(read(raw.as_bytes()).unwrap().kind, Kind::AutoReply, "{raw}");
        }
        // "Auto-Submitted: no" is a person writing.
        let person = "From: a@cafe.example\r\nAuto-Submitted: no\r\nSubject: Re: Fresh bread\r\n\r\nYes please\r\n";
        assert_eq!(read(person.as_bytes()).unwrap().kind, Kind::Reply);
    }

    #[test]
    fn replies_name_the_messages_they_answer() {
        let raw = "From: \"Owner\" <Owner@Cafe.Example>\r\nTo: ada@bakery.example\r\nSubject: Re: Fresh bread\r\n\
In-Reply-To: <m-43.abc@bakery.example>\r\nReferences: <older@bakery.example> <m-43.abc@bakery.example>\r\n\r\n\
Sounds good, call me.\r\n\r\n> Hello Cafe\r\n";
        let reply = read(raw.as_bytes()).unwrap();
        assert_eq!(reply.kind, Kind::Reply);
        assert_eq!(reply.from.as_deref(), Some("owner@cafe.example"));
        assert_eq!(
            reply.refers_to,
            vec![
                "m-43.abc@bakery.example".to_string(),
                "older@bakery.example".to_string()
            ]
        );
        assert!(reply.text.starts_with("Sounds good, call me."));
        assert_eq!(reply.subject, "Re: Fresh bread");
    }
}
