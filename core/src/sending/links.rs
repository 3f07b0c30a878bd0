//! Signed links that go out in emails and come back to this instance: the composer writes them, tracking and the
//! unsubscribe page check them.

use crate::Settings;
use crate::accounts::normalize_email;
use crate::platform::config::Secret;
use crate::platform::security::{open_sealed, seal, sign, sign_parts, verify, verify_parts};

/// The signature purpose of unsubscribe links: a link sent before issue 81 carries the address in clear and its
/// signature (`?email=&signature=`), and keeps working; links sent since carry an opaque sealed token (`?t=`).
pub const UNSUBSCRIBE_PURPOSE: &str = "unsubscribe";

/// The signature purposes of tracking links.
pub const CLICK_PURPOSE: &str = "click";
pub const OPEN_PURPOSE: &str = "open";

/// The signed links of one message, under this instance's public address (worked out once for all of them: every
/// message of a campaign carries several).
pub struct Links<'a> {
    key: &'a Secret,
    base: String,
}

impl<'a> Links<'a> {
    pub fn new(settings: &'a Settings) -> Self {
        Self {
            key: &settings.security.secret_key,
            base: settings.http.public_url(),
        }
    }

    /// The unsubscribe page for an address: an opaque token sealed with the instance key, which only this instance
    /// can open (to pre-fill the page, or to suppress the address on a one-click POST). The address itself is never
    /// in the link, so no proxy or log on the way learns it, and spam filters do not see a phishing-shaped URL.
    /// The token also holds the sender's name, so the page can say whose emails stop.
    pub fn unsubscribe(&self, email: &str, sender: &str) -> String {
        let token = unsubscribe_token(self.key, email, sender);
        let mut url = self.url(token.len() + 16, "/unsubscribe?t=");
        url.push_str(&token);
        url
    }

    /// A link's click-tracking URL: the message token and the original address, signed together, so the redirect
    /// goes only to an address that was in that message.
    pub fn click(&self, token: &str, address: &str) -> String {
        let signature = sign_parts(self.key, CLICK_PURPOSE, &click_signed(token, address));
        let mut url = self.url(
            token.len() + address.len() * 3 + signature.len() + 16,
            "/t/c/",
        );
        url.push_str(token);
        url.push_str("?u=");
        push_percent_encoded(&mut url, address);
        url.push_str("&s=");
        push_percent_encoded(&mut url, &signature);
        url
    }

    /// The message's open pixel.
    pub fn open_pixel(&self, token: &str) -> String {
        let signature = sign(self.key, OPEN_PURPOSE, token);
        let mut url = self.url(token.len() + signature.len() + 16, "/t/o/");
        url.push_str(token);
        url.push_str(".gif?s=");
        push_percent_encoded(&mut url, &signature);
        url
    }

    /// The public address and `path`, with room for `more`.
    fn url(&self, more: usize, path: &str) -> String {
        let mut url = String::with_capacity(self.base.len() + path.len() + more);
        url.push_str(&self.base);
        url.push_str(path);
        url
    }
}

/// The sealed token of an address's unsubscribe link: the address normalised, and on a second line the name of the
/// sender its emails come from (when there is one).
pub fn unsubscribe_token(key: &Secret, email: &str, sender: &str) -> String {
    let email = normalize_email(email);
    let sender = sender.split_whitespace().collect::<Vec<_>>().join(" ");
    if sender.is_empty() {
        seal(key, UNSUBSCRIBE_PURPOSE, &email)
    } else {
        seal(key, UNSUBSCRIBE_PURPOSE, &format!("{email}\n{sender}"))
    }
}

/// What an unsubscribe link names: the address, and the sender its emails came from (links made before the sender
/// was sealed in, and older links with the address in clear, name none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedAddress {
    pub email: String,
    pub sender: Option<String>,
}

/// What an unsubscribe link names: its sealed token (`t`), or an older link's address and signature. None when the
/// link was not made by this instance.
pub fn unsubscribe_link(
    settings: &Settings,
    token: Option<&str>,
    email: Option<&str>,
    signature: Option<&str>,
) -> Option<LinkedAddress> {
    let key = &settings.security.secret_key;
    if let Some(token) = token.filter(|token| !token.is_empty()) {
        let sealed = open_sealed(key, UNSUBSCRIBE_PURPOSE, token)?;
        let (email, sender) = match sealed.split_once('\n') {
            Some((email, sender)) => (email.to_string(), Some(sender.to_string())),
            None => (sealed, None),
        };
        return Some(LinkedAddress { email, sender });
    }
    let email = normalize_email(email?);
    verify(key, UNSUBSCRIBE_PURPOSE, &email, signature?).then_some(LinkedAddress {
        email,
        sender: None,
    })
}

/// The address an unsubscribe link names (see [`unsubscribe_link`]).
pub fn unsubscribe_address(
    settings: &Settings,
    token: Option<&str>,
    email: Option<&str>,
    signature: Option<&str>,
) -> Option<String> {
    unsubscribe_link(settings, token, email, signature).map(|linked| linked.email)
}

/// The link an older message carried: the address in clear and its signature (see [`UNSUBSCRIBE_PURPOSE`]).
pub fn legacy_unsubscribe_url(settings: &Settings, email: &str) -> String {
    let email = normalize_email(email);
    let signature = sign(&settings.security.secret_key, UNSUBSCRIBE_PURPOSE, &email);
    let mut url = settings.http.public_url();
    url.push_str("/unsubscribe?email=");
    push_percent_encoded(&mut url, &email);
    url.push_str("&signature=");
    push_percent_encoded(&mut url, &signature);
    url
}

/// What a click link signs: its message's token and its address, on two lines.
fn click_signed<'a>(token: &'a str, address: &'a str) -> [&'a str; 3] {
    [token, "\n", address]
}

/// The unsubscribe page for an address of a sender's emails (see [`Links::unsubscribe`]).
pub fn unsubscribe_url(settings: &Settings, email: &str, sender: &str) -> String {
    Links::new(settings).unsubscribe(email, sender)
}

/// A link's click-tracking URL (see [`Links::click`]).
pub fn click_url(settings: &Settings, token: &str, url: &str) -> String {
    Links::new(settings).click(token, url)
}

/// Whether a click URL's parts are the ones [`click_url`] signed.
pub fn verify_click(settings: &Settings, token: &str, url: &str, signature: &str) -> bool {
    verify_parts(
        &settings.security.secret_key,
        CLICK_PURPOSE,
        &click_signed(token, url),
        signature,
    )
}

/// The message's open pixel (see [`Links::open_pixel`]).
pub fn open_pixel_url(settings: &Settings, token: &str) -> String {
    Links::new(settings).open_pixel(token)
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

/// Percent-encodes everything but RFC 3986's unreserved characters; the runs between are copied whole.
fn push_percent_encoded(output: &mut String, value: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut run = 0;
    for (at, &byte) in value.as_bytes().iter().enumerate() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            continue;
        }
        // A run is ASCII, so both its ends are character boundaries.
        if run < at {
            output.push_str(&value[run..at]);
        }
        output.push('%');
        output.push(char::from(HEX[usize::from(byte >> 4)]));
        output.push(char::from(HEX[usize::from(byte & 0x0f)]));
        run = at + 1;
    }
    if run < value.len() {
        output.push_str(&value[run..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsubscribe_links_carry_an_opaque_token_and_old_links_still_open() {
        let mut settings = Settings::default();
        settings.security.secret_key = Secret::new("k".repeat(64));
        settings.http.public_url = "https://out.example.com".into();
        let url = unsubscribe_url(&settings, " Ada+news@Example.org ", "");
        let token = url
            .strip_prefix("https://out.example.com/unsubscribe?t=")
            .expect(&url);
        assert!(
            !url.contains("ada") && !url.contains("example.org") && !url.contains('%'),
            "{url}"
        );
        assert_eq!(
            unsubscribe_address(&settings, Some(token), None, None).as_deref(),
            Some("ada+news@example.org")
        );
        assert_eq!(
            unsubscribe_address(&settings, Some("AAAA"), None, None),
            None
        );
        // Issue 83.16: the sender's name travels sealed with the address, so the page can name it.
        let named = unsubscribe_url(&settings, "ada@example.org", "Nordic\nBakery");
        let token = named.rsplit("t=").next().unwrap();
        assert!(!named.contains("Nordic"), "{named}");
        assert_eq!(
            unsubscribe_link(&settings, Some(token), None, None),
            Some(LinkedAddress {
                email: "ada@example.org".into(),
                sender: Some("Nordic Bakery".into())
            })
        );
        // A link sent before the tokens: the address and its signature.
        let old = legacy_unsubscribe_url(&settings, "Ada+news@example.org");
        let signature = old
            .strip_prefix(
                "https://out.example.com/unsubscribe?email=ada%2Bnews%40example.org&signature=",
            )
            .expect(&old);
        assert_eq!(
            unsubscribe_address(
                &settings,
                None,
                Some("ada+news@example.org"),
                Some(signature)
            )
            .as_deref(),
            Some("ada+news@example.org")
        );
        assert_eq!(
            unsubscribe_address(&settings, None, Some("bob@example.org"), Some(signature)),
            None
        );
    }

    #[test]
    fn click_links_encode_every_reserved_and_non_ascii_byte_and_verify() {
        let mut settings = Settings::default();
        settings.security.secret_key = Secret::new("k".repeat(64));
        settings.http.public_url = "https://out.example.com/".into();
        let address = "https://café.example/a b?x=1&y=~z.-_#top";
        let url = click_url(&settings, "tok1", address);
        let query = url
            .strip_prefix(
                "https://out.example.com/t/c/tok1?u=https%3A%2F%2Fcaf%C3%A9.example%2Fa%20b%3Fx%3D1%26y%3D~z.-_%23top&s=",
            )
            .expect(&url);
        assert!(verify_click(&settings, "tok1", address, query));
        // The token and the address are signed as two lines of one value.
        assert!(verify(
            &settings.security.secret_key,
            CLICK_PURPOSE,
            &format!("tok1\n{address}"),
            query
        ));
        assert!(!verify_click(
            &settings,
            "tok1",
            "https://cafe.example/",
            query
        ));
        assert!(!verify_click(&settings, "tok2", address, query));
    }
}
