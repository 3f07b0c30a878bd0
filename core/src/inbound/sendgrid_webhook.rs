//! SendGrid's Event Webhook, verified: each request is signed with ECDSA (P-256, SHA-256) over the timestamp header
//! followed by the raw body (`X-Twilio-Email-Event-Webhook-Signature`, `X-Twilio-Email-Event-Webhook-Timestamp`),
//! with the key whose public half the operator configures (`sendgrid.webhook_public_key`, base64 DER as SendGrid
//! shows it). A request is accepted only with a valid signature and a timestamp inside the window; its events are
//! then mapped to the messages they name.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use serde::Deserialize;

/// How far a request's timestamp may be from now (replays outside it are refused).
pub const WINDOW_SECONDS: i64 = 300;

/// Why a request was refused (all answered 401; the reason is logged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("no webhook public key is configured")]
    NoKey,
    #[error("the configured webhook public key cannot be read")]
    BadKey,
    #[error("the signature or timestamp header is missing or malformed")]
    Malformed,
    #[error("the timestamp is outside the accepted window")]
    Stale,
    #[error("the signature does not match")]
    Forged,
}

/// Checks a request's signature and timestamp against the configured public key.
pub fn verify(
    public_key: &str,
    signature: Option<&str>,
    timestamp: Option<&str>,
    body: &[u8],
    now_seconds: i64,
) -> Result<(), Refusal> {
    if public_key.trim().is_empty() {
        return Err(Refusal::NoKey);
    }
    let der = STANDARD
        .decode(public_key.trim())
        .map_err(|_| Refusal::BadKey)?;
    let key = VerifyingKey::from_public_key_der(&der).map_err(|_| Refusal::BadKey)?;
    let (Some(signature), Some(timestamp)) = (signature, timestamp) else {
        return Err(Refusal::Malformed);
    };
    let seconds: i64 = timestamp.trim().parse().map_err(|_| Refusal::Malformed)?;
    if (now_seconds - seconds).abs() > WINDOW_SECONDS {
        return Err(Refusal::Stale);
    }
    let signature = STANDARD
        .decode(signature.trim())
        .ok()
        .and_then(|bytes| Signature::from_der(&bytes).ok())
        .ok_or(Refusal::Malformed)?;
    let mut payload = timestamp.trim().as_bytes().to_vec();
    payload.extend_from_slice(body);
    key.verify(&payload, &signature)
        .map_err(|_| Refusal::Forged)
}

/// What a request's replay record is keyed on: the SHA-256 of what was signed (timestamp, then body). Not the
/// signature: ECDSA accepts both (r, s) and (r, n - s) for one payload, so a replay could come with the other.
pub fn payload_hash(timestamp: &str, body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(timestamp.trim().as_bytes());
    hasher.update(body);
    hex::encode(hasher.finalize())
}

/// One event of the webhook's JSON array (the fields this product reads).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Event {
    pub event: String,
    pub email: Option<String>,
    pub timestamp: Option<i64>,
    /// Our Message-ID, sent as a custom argument with every message.
    pub outreach_message: Option<String>,
    pub url: Option<String>,
    pub reason: Option<String>,
    /// `bounce` (permanent) or `blocked` (temporary) for bounce events.
    #[serde(rename = "type")]
    pub bounce_type: Option<String>,
    pub sg_event_id: Option<String>,
}

/// What a webhook event means for its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meaning {
    Delivered,
    Open,
    Click(String),
    Bounce {
        hard: bool,
        reason: String,
    },
    Spam,
    Unsubscribe,
    /// Events this product does not act on (processed, deferred, group events).
    Ignored,
}

impl Event {
    pub fn meaning(&self) -> Meaning {
        match self.event.as_str() {
            "delivered" => Meaning::Delivered,
            "open" => Meaning::Open,
            "click" => Meaning::Click(self.url.clone().unwrap_or_default()),
            "bounce" => Meaning::Bounce {
                hard: self.bounce_type.as_deref() != Some("blocked"),
                reason: self.reason.clone().unwrap_or_else(|| "Bounced".into()),
            },
            "dropped" => Meaning::Bounce {
                hard: true,
                reason: format!(
                    "Dropped by SendGrid: {}",
                    self.reason.as_deref().unwrap_or("no reason given")
                ),
            },
            "spamreport" => Meaning::Spam,
            "unsubscribe" | "group_unsubscribe" => Meaning::Unsubscribe,
            _ => Meaning::Ignored,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::SigningKey;
    use p256::ecdsa::signature::Signer;

    fn key(seed: u8) -> (SigningKey, String) {
        let signing = SigningKey::from_bytes(&[seed; 32].into()).unwrap();
        // SubjectPublicKeyInfo for P-256 (id-ecPublicKey, prime256v1) around the uncompressed point.
        let mut der = hex::decode("3059301306072a8648ce3d020106082a8648ce3d030107034200").unwrap();
        der.extend_from_slice(signing.verifying_key().to_encoded_point(false).as_bytes());
        (signing, STANDARD.encode(der))
    }

    fn sign(signing: &SigningKey, timestamp: &str, body: &[u8]) -> String {
        let mut payload = timestamp.as_bytes().to_vec();
        payload.extend_from_slice(body);
        let signature: Signature = signing.sign(&payload);
        STANDARD.encode(signature.to_der().as_bytes())
    }

    #[test]
    fn only_a_fresh_request_signed_with_the_configured_key_passes() {
        let (signing, public) = key(7);
        let (_, other_public) = key(9);
        let body = br#"[{"event":"delivered","email":"a@cafe.example","outreach_message":"m-1@bakery.example"}]"#;
        let now = 1_800_000_000;
        let stamp = now.to_string();
        let signature = sign(&signing, &stamp, body);
        assert_eq!(
            verify(&public, Some(&signature), Some(&stamp), body, now),
            Ok(())
        );
        assert_eq!(
            verify(&public, Some(&signature), Some(&stamp), body, now + 200),
            Ok(())
        );
        assert_eq!(
            verify(&other_public, Some(&signature), Some(&stamp), body, now),
            Err(Refusal::Forged)
        );
        let mut tampered = body.to_vec();
        tampered[12] = b'X';
        assert_eq!(
            verify(&public, Some(&signature), Some(&stamp), &tampered, now),
            Err(Refusal::Forged)
        );
        // The timestamp is part of what is signed, and it must be recent.
        let later = (now + 1).to_string();
        assert_eq!(
            verify(&public, Some(&signature), Some(&later), body, now),
            Err(Refusal::Forged)
        );
        assert_eq!(
            verify(&public, Some(&signature), Some(&stamp), body, now + 301),
            Err(Refusal::Stale)
        );
        assert_eq!(
            verify(&public, None, Some(&stamp), body, now),
            Err(Refusal::Malformed)
        );
        assert_eq!(
            verify(&public, Some("not base64!"), Some(&stamp), body, now),
            Err(Refusal::Malformed)
        );
        assert_eq!(
            verify("", Some(&signature), Some(&stamp), body, now),
            Err(Refusal::NoKey)
        );
        assert_eq!(
            verify("AAAA", Some(&signature), Some(&stamp), body, now),
            Err(Refusal::BadKey)
        );
    }

    #[test]
    fn events_mean_what_sendgrid_documents() {
        let events: Vec<Event> = serde_json::from_str(
            r#"[
            {"event":"delivered","outreach_message":"m1"},
            {"event":"click","url":"https://bakery.example/menu"},
            {"event":"bounce","type":"bounce","reason":"550 5.1.1 unknown user"},
            {"event":"bounce","type":"blocked","reason":"421 try later"},
            {"event":"dropped","reason":"Bounced Address"},
            {"event":"spamreport"},
            {"event":"group_unsubscribe"},
            {"event":"processed"}
        ]"#,
        )
        .unwrap();
        let meanings: Vec<Meaning> = events.iter().map(Event::meaning).collect();
        assert_eq!(
            meanings,
            vec![
                Meaning::Delivered,
                Meaning::Click("https://bakery.example/menu".into()),
                Meaning::Bounce {
                    hard: true,
                    reason: "550 5.1.1 unknown user".into()
                },
                Meaning::Bounce {
                    hard: false,
                    reason: "421 try later".into()
                },
                Meaning::Bounce {
                    hard: true,
                    reason: "Dropped by SendGrid: Bounced Address".into()
                },
                Meaning::Spam,
                Meaning::Unsubscribe,
                Meaning::Ignored,
            ]
        );
        assert_eq!(events[0].outreach_message.as_deref(), Some("m1"));
    }
}
