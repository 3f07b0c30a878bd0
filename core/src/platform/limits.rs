//! Size limits of everything a user sends, in one table: text fields by their JSON name (the same name has the same
//! limit in every request), a default for any other text, and one for lists. The API checks every JSON body against
//! them before a handler sees it, so no endpoint can forget a limit; the README lists them.

use crate::platform::invalid::Invalid;
use serde_json::Value;

/// Characters allowed in a text field with this JSON name, and the field's name in messages.
const FIELD_LIMITS: &[(&str, usize, &str)] = &[
    // Names and short labels.
    ("name", 200, "Name"),
    ("campaignName", 200, "Campaign name"),
    ("templateName", 200, "Template name"),
    ("configName", 200, "Configuration name"),
    ("firstName", 100, "First name"),
    ("lastName", 100, "Last name"),
    ("emailSendFromName", 200, "Sender name"),
    ("sendFromName", 200, "Sender name"),
    ("emailFromName", 200, "Sender name"),
    ("businessName", 200, "Business name"),
    ("category", 100, "Category"),
    ("businessType", 200, "Business type"),
    ("onlineBusinessType", 200, "Online business type"),
    ("geographicArea", 200, "Geographic area"),
    ("topics", 500, "Topics"),
    ("objective", 200, "Objective"),
    ("tone", 50, "Tone"),
    ("status", 50, "Status"),
    ("code", 100, "Code"),
    // Addresses (RFC 5321: 254 characters at most) and hosts.
    ("email", 254, "Email address"),
    ("to", 254, "Email address"),
    ("from", 254, "Email address"),
    ("testEmail", 254, "Test email address"),
    ("emailSendFrom", 254, "Sender address"),
    ("emailFromAddress", 254, "Sender address"),
    ("sendFromEmail", 254, "Sender address"),
    ("emailReplyTo", 254, "Reply-to address"),
    ("replyTo", 254, "Reply-to address"),
    ("smtpHost", 253, "SMTP host"),
    ("imapHost", 253, "IMAP host"),
    ("customDomain", 253, "Domain"),
    ("promotionalUrl", 2_000, "Promotional URL"),
    // A subject longer than this would not fit a mail header line (RFC 5322: 998).
    ("subject", 500, "Subject"),
    // Long text.
    ("body", 100_000, "Email body"),
    ("htmlBody", 100_000, "Email body"),
    ("emailSignature", 2_000, "Email signature"),
    ("serviceDescription", 5_000, "Service description"),
    ("valueProposition", 5_000, "Value proposition"),
    ("yourAsk", 2_000, "Your ask"),
    ("adjustments", 2_000, "Adjustments"),
    ("aiEducationText", 50_000, "AI education text"),
    ("note", 10_000, "Note"),
    ("text", 10_000, "Text"),
    ("postalAddress", 500, "Postal address"),
];

/// Any other text field.
pub const DEFAULT_TEXT_LIMIT: usize = 2_000;
/// Items in any list (business ids of a launch or a campaign, file names, follow-ups).
pub const LIST_LIMIT: usize = 10_000;
/// Characters in one cell of an imported CSV, and rows in one import.
pub const CSV_CELL_LIMIT: usize = 1_000;
pub const CSV_ROW_LIMIT: usize = 10_000;

/// The first field of `body` over its limit, as a message for the user.
pub fn check(body: &Value) -> Result<(), Invalid> {
    check_value(None, body)
}

fn check_value(key: Option<&str>, value: &Value) -> Result<(), Invalid> {
    match value {
        Value::String(text) => {
            let (limit, label) = key
                .and_then(|key| FIELD_LIMITS.iter().find(|(name, _, _)| *name == key))
                .map_or(
                    (DEFAULT_TEXT_LIMIT, key.unwrap_or("Text")),
                    |(_, limit, label)| (*limit, *label),
                );
            // Bytes bound characters from above: count only when it could matter.
            if text.len() > limit && text.chars().count() > limit {
                return Err(Invalid(format!(
                    "{label} must be at most {limit} characters"
                )));
            }
            Ok(())
        }
        Value::Array(items) => {
            if items.len() > LIST_LIMIT {
                return Err(Invalid(format!(
                    "{} may have at most {LIST_LIMIT} items",
                    key.unwrap_or("A list")
                )));
            }
            items.iter().try_for_each(|item| check_value(key, item))
        }
        Value::Object(fields) => fields
            .iter()
            .try_for_each(|(name, value)| check_value(Some(name), value)),
        _ => Ok(()),
    }
}

/// `ids` without repeats, in their first order: a list that names a business twice means it once.
pub fn distinct(ids: &[i64]) -> Vec<i64> {
    let mut seen = std::collections::HashSet::with_capacity(ids.len());
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_are_checked_by_name_with_a_default_and_lists_by_length() {
        assert!(check(&json!({ "name": "a".repeat(200), "subject": "é".repeat(500) })).is_ok());
        assert_eq!(
            check(&json!({ "name": "a".repeat(201) })).unwrap_err(),
            "Name must be at most 200 characters"
        );
        assert_eq!(
            check(&json!({ "nested": { "subject": "s".repeat(501) } })).unwrap_err(),
            "Subject must be at most 500 characters"
        );
        assert_eq!(
            check(&json!({ "whatever": "w".repeat(DEFAULT_TEXT_LIMIT + 1) })).unwrap_err(),
            format!("whatever must be at most {DEFAULT_TEXT_LIMIT} characters")
        );
        assert_eq!(
            check(&json!({ "businessIds": vec![1; LIST_LIMIT + 1] })).unwrap_err(),
            format!("businessIds may have at most {LIST_LIMIT} items")
        );
        assert_eq!(
            check(&json!([{ "body": "b".repeat(100_001) }])).unwrap_err(),
            "Email body must be at most 100000 characters"
        );
        assert!(check(&json!({ "aiEducationFiles": ["a.pdf", "b.pdf"], "radius": 25 })).is_ok());
    }

    #[test]
    fn repeated_ids_count_once_in_their_first_order() {
        assert_eq!(distinct(&[3, 1, 3, 2, 1]), vec![3, 1, 2]);
    }
}
