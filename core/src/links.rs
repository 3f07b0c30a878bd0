//! Signed links that go out in emails and come back to this instance.

use crate::Settings;
use crate::accounts::normalize_email;
use crate::security::sign;

/// The signature purpose of unsubscribe links.
pub const UNSUBSCRIBE_PURPOSE: &str = "unsubscribe";

/// The unsubscribe page for an address, signed so the page may pre-fill it.
pub fn unsubscribe_url(settings: &Settings, email: &str) -> String {
    let email = normalize_email(email);
    let signature = sign(&settings.security.secret_key, UNSUBSCRIBE_PURPOSE, &email);
    let query: String = form_urlencoded(&[("email", &email), ("signature", &signature)]);
    format!("{}/unsubscribe?{query}", settings.http.public_url())
}

fn form_urlencoded(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(key, value)| format!("{key}={}", percent_encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn percent_encode(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (byte as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;
    use crate::security::verify;

    #[test]
    fn unsubscribe_links_are_signed_and_encoded() {
        let mut settings = Settings::default();
        settings.security.secret_key = Secret::new("k".repeat(64));
        settings.http.public_url = "https://out.example.com".into();
        let url = unsubscribe_url(&settings, " Ada+news@Example.org ");
        let query = url.strip_prefix(
            "https://out.example.com/unsubscribe?email=ada%2Bnews%40example.org&signature=",
        );
        let signature = query.expect(&url);
        assert!(verify(
            &settings.security.secret_key,
            UNSUBSCRIBE_PURPOSE,
            "ada+news@example.org",
            signature
        ));
    }
}
