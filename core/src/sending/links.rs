//! Signed links that go out in emails and come back to this instance: the composer writes them, tracking and the
//! unsubscribe page check them.

use crate::Settings;
use crate::accounts::normalize_email;
use crate::platform::security::{sign, verify};

/// The signature purpose of unsubscribe links.
pub const UNSUBSCRIBE_PURPOSE: &str = "unsubscribe";

/// The unsubscribe page for an address, signed so the page may pre-fill it.
pub fn unsubscribe_url(settings: &Settings, email: &str) -> String {
    let email = normalize_email(email);
    let signature = sign(&settings.security.secret_key, UNSUBSCRIBE_PURPOSE, &email);
    let query: String = form_urlencoded(&[("email", &email), ("signature", &signature)]);
    format!("{}/unsubscribe?{query}", settings.http.public_url())
}

/// The signature purposes of tracking links.
pub const CLICK_PURPOSE: &str = "click";
pub const OPEN_PURPOSE: &str = "open";

/// A link's click-tracking URL: the message token and the original address, signed together, so the redirect goes
/// only to an address that was in that message.
pub fn click_url(settings: &Settings, token: &str, url: &str) -> String {
    let signature = sign(
        &settings.security.secret_key,
        CLICK_PURPOSE,
        &format!("{token}\n{url}"),
    );
    let query = form_urlencoded(&[("u", url), ("s", &signature)]);
    format!("{}/t/c/{token}?{query}", settings.http.public_url())
}

/// Whether a click URL's parts are the ones [`click_url`] signed.
pub fn verify_click(settings: &Settings, token: &str, url: &str, signature: &str) -> bool {
    verify(
        &settings.security.secret_key,
        CLICK_PURPOSE,
        &format!("{token}\n{url}"),
        signature,
    )
}

/// The message's open pixel.
pub fn open_pixel_url(settings: &Settings, token: &str) -> String {
    let signature = sign(&settings.security.secret_key, OPEN_PURPOSE, token);
    format!(
        "{}/t/o/{token}.gif?s={}",
        settings.http.public_url(),
        percent_encode(&signature)
    )
}

/// Whether an open pixel's signature is the one [`open_pixel_url`] made.
pub fn verify_open(settings: &Settings, token: &str, signature: &str) -> bool {
    verify(
        &settings.security.secret_key,
        OPEN_PURPOSE,
        token,
        signature,
    )
}

fn form_urlencoded(pairs: &[(&str, &str)]) -> String {
    let mut query =
        String::with_capacity(pairs.iter().map(|(k, v)| k.len() + v.len() * 3 + 2).sum());
    for (index, (key, value)) in pairs.iter().enumerate() {
        if index > 0 {
            query.push('&');
        }
        query.push_str(key);
        query.push('=');
        push_percent_encoded(&mut query, value);
    }
    query
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn percent_encode(value: &str) -> String {
    let mut encoded = String::with_capacity(value.len() * 3);
    push_percent_encoded(&mut encoded, value);
    encoded
}

fn push_percent_encoded(output: &mut String, value: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                output.push(char::from(byte));
            }
            other => {
                output.push('%');
                output.push(char::from(HEX[usize::from(other >> 4)]));
                output.push(char::from(HEX[usize::from(other & 0x0f)]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::config::Secret;

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
