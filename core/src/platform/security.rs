//! Random tokens, session-id hashing and the instance secret key.

use std::cell::RefCell;
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::platform::config::Secret;

/// A URL-safe random token with `bytes` bytes of entropy.
pub fn random_token(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).expect("the operating system's random source is available");
    URL_SAFE_NO_PAD.encode(buffer)
}

/// Sessions are looked up by this hash, so stored rows cannot be replayed as cookies.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A signature of `purpose` and `value` with the instance key, for links that must not be forged
/// (unsubscribe, tracking). The purpose keeps a signature for one kind of link from working for another.
pub fn sign(key: &Secret, purpose: &str, value: &str) -> String {
    sign_parts(key, purpose, &[value])
}

/// [`sign`] of the parts written one after the other, without joining them first (a click link signs its
/// message's token and its address).
pub fn sign_parts(key: &Secret, purpose: &str, parts: &[&str]) -> String {
    URL_SAFE_NO_PAD.encode(mac(key, purpose, parts).finalize().into_bytes())
}

/// Checks a signature made by [`sign`] in constant time.
pub fn verify(key: &Secret, purpose: &str, value: &str, signature: &str) -> bool {
    verify_parts(key, purpose, &[value], signature)
}

/// Checks a signature made by [`sign_parts`] (or [`sign`] of the joined parts) in constant time.
pub fn verify_parts(key: &Secret, purpose: &str, parts: &[&str], signature: &str) -> bool {
    // Decoded on the stack (every tracking hit checks one); one that does not fit is no signature of ours.
    let mut bytes = [0u8; 32];
    let Ok(length) = URL_SAFE_NO_PAD.decode_slice(signature, &mut bytes) else {
        return false;
    };
    mac(key, purpose, parts)
        .verify_slice(&bytes[..length])
        .is_ok()
}

thread_local! {
    /// The last key's keyed HMAC state: keying takes as many SHA-256 blocks as the signature of a short value
    /// (four for a key longer than a block), and every tracking hit and sent message signs with the instance key.
    /// Compared with `==`: both keys are this server's own, never a caller's.
    static KEYED: RefCell<Option<(Secret, Hmac<Sha256>)>> = const { RefCell::new(None) };
}

fn mac(key: &Secret, purpose: &str, parts: &[&str]) -> Hmac<Sha256> {
    let mut mac = KEYED.with_borrow_mut(|keyed| match keyed {
        Some((cached, state)) if cached == key => state.clone(),
        _ => {
            let state = Hmac::<Sha256>::new_from_slice(key.expose().as_bytes())
                .expect("HMAC takes keys of any length");
            *keyed = Some((key.clone(), state.clone()));
            state
        }
    });
    mac.update(purpose.as_bytes());
    mac.update(&[0]);
    for part in parts {
        mac.update(part.as_bytes());
    }
    mac
}

/// An invite code people can read out and type: 12 characters without look-alikes, grouped by four.
pub fn invite_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buffer = [0u8; 12];
    getrandom::fill(&mut buffer).expect("the operating system's random source is available");
    let chars: Vec<char> = buffer
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    chars
        .chunks(4)
        .map(|group| group.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// The configured key, or the one kept in `<data dir>/secret.key`, generated on first start.
pub fn load_or_create_secret_key(configured: &Secret, data_dir: &Path) -> std::io::Result<Secret> {
    if !configured.is_empty() {
        return Ok(configured.clone());
    }
    let file = data_dir.join("secret.key");
    if let Ok(existing) = std::fs::read_to_string(&file) {
        let existing = existing.trim();
        if existing.len() >= 64 {
            return Ok(Secret::new(existing));
        }
    }
    std::fs::create_dir_all(data_dir)?;
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).expect("the operating system's random source is available");
    let text = hex::encode(key);
    write_private(&file, &text)?;
    Ok(Secret::new(text))
}

#[cfg(unix)]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut handle = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(file)?;
    handle.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(file, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_unique_and_hashes_stable() {
        let (a, b) = (random_token(32), random_token(32));
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(hash_token(&a), hash_token(&a));
        assert_ne!(hash_token(&a), a);
    }

    #[test]
    fn a_signature_of_parts_is_the_signature_of_the_parts_joined() {
        let key = Secret::new("k".repeat(64));
        let parts = ["tok1", "\n", "https://bakery.example/menu"];
        let signature = sign_parts(&key, "click", &parts);
        assert_eq!(signature, sign(&key, "click", &parts.concat()));
        assert!(verify_parts(&key, "click", &parts, &signature));
        assert!(verify(&key, "click", &parts.concat(), &signature));
        assert!(!verify_parts(
            &key,
            "click",
            &["tok1\n", "https://bakery.example/men"],
            &signature
        ));
        assert!(!verify_parts(&key, "open", &parts, &signature));
    }

    #[test]
    fn signatures_verify_only_for_the_same_key_purpose_and_value() {
        let key = Secret::new("k".repeat(64));
        let signature = sign(&key, "unsubscribe", "ada@example.org");
        assert!(verify(&key, "unsubscribe", "ada@example.org", &signature));
        assert!(!verify(&key, "unsubscribe", "eve@example.org", &signature));
        assert!(!verify(&key, "click", "ada@example.org", &signature));
        assert!(!verify(
            &Secret::new("other"),
            "unsubscribe",
            "ada@example.org",
            &signature
        ));
        // The first key after another on this thread (the keyed state kept for one key is never another's), and
        // the other key's signature is HMAC-SHA256's own.
        assert!(verify(&key, "unsubscribe", "ada@example.org", &signature));
        let mut reference = Hmac::<Sha256>::new_from_slice(b"other").unwrap();
        reference.update(b"unsubscribe\0ada@example.org");
        assert_eq!(
            sign(&Secret::new("other"), "unsubscribe", "ada@example.org"),
            URL_SAFE_NO_PAD.encode(reference.finalize().into_bytes())
        );
        assert!(!verify(
            &key,
            "unsubscribe",
            "ada@example.org",
            "not base64!"
        ));
        // Too long, or cut short: no signature, whatever it begins with.
        let longer = format!("{signature}AAAA");
        assert!(!verify(&key, "unsubscribe", "ada@example.org", &longer));
        assert!(!verify(
            &key,
            "unsubscribe",
            "ada@example.org",
            &signature[..40]
        ));
    }

    #[test]
    fn invite_codes_are_grouped_and_readable() {
        let code = invite_code();
        assert_eq!(code.len(), 14);
        assert!(
            code.chars()
                .all(|c| c == '-' || (c.is_ascii_alphanumeric() && !"01IO".contains(c))),
            "{code}"
        );
    }

    #[test]
    fn secret_key_is_generated_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_or_create_secret_key(&Secret::default(), dir.path()).unwrap();
        let second = load_or_create_secret_key(&Secret::default(), dir.path()).unwrap();
        assert_eq!(first.expose(), second.expose());
        assert_eq!(first.expose().len(), 64);
        let configured =
            load_or_create_secret_key(&Secret::new("c".repeat(64)), dir.path()).unwrap();
        assert_eq!(configured.expose(), "c".repeat(64));
    }
}

/// Encrypts a credential for storage (ChaCha20-Poly1305 under a key derived from the instance key; a random
/// nonce per value): `base64url(nonce || ciphertext)`.
pub fn encrypt_secret(key: &Secret, plaintext: &str) -> String {
    use chacha20poly1305::aead::Aead;
    let mut nonce = [0u8; 12];
    getrandom::fill(&mut nonce).expect("the operating system's random source is available");
    let sealed = cipher(key)
        .encrypt(&nonce.into(), plaintext.as_bytes())
        .expect("encrypting in memory cannot fail");
    URL_SAFE_NO_PAD.encode([nonce.as_slice(), &sealed].concat())
}

/// The credential [`encrypt_secret`] stored, or None when it was not sealed with this instance's key.
pub fn decrypt_secret(key: &Secret, stored: &str) -> Option<Secret> {
    use chacha20poly1305::aead::Aead;
    let bytes = URL_SAFE_NO_PAD.decode(stored).ok()?;
    if bytes.len() < 12 {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(12);
    let nonce: [u8; 12] = nonce.try_into().ok()?;
    let plain = cipher(key).decrypt(&nonce.into(), sealed).ok()?;
    String::from_utf8(plain).ok().map(Secret::new)
}

fn cipher(key: &Secret) -> chacha20poly1305::ChaCha20Poly1305 {
    use chacha20poly1305::KeyInit;
    let derived = Sha256::digest(format!("outreach credential key\n{}", key.expose()).as_bytes());
    chacha20poly1305::ChaCha20Poly1305::new(&derived)
}

#[cfg(test)]
mod credential_tests {
    use super::*;

    #[test]
    fn credentials_round_trip_and_refuse_other_keys_and_tampering() {
        let key = Secret::new("instance-key");
        let stored = encrypt_secret(&key, "smtp-password");
        assert!(!stored.contains("smtp-password"));
        assert_ne!(
            stored,
            encrypt_secret(&key, "smtp-password"),
            "a fresh nonce each time"
        );
        assert_eq!(
            decrypt_secret(&key, &stored).unwrap().expose(),
            "smtp-password"
        );
        assert!(decrypt_secret(&Secret::new("another-key"), &stored).is_none());
        let mut tampered = stored.into_bytes();
        let last = tampered.len() - 2;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        assert!(decrypt_secret(&key, &String::from_utf8(tampered).unwrap()).is_none());
        assert!(decrypt_secret(&key, "short").is_none());
    }
}

/// Seals a value into an opaque token for a link (ChaCha20-Poly1305 under a key derived from the instance key and
/// `purpose`): `base64url(nonce || ciphertext)`. The nonce is the value's HMAC, so the same value always seals to
/// the same token (a message composes the same bytes on a retry) and the token says nothing of the value but
/// whether two are equal. Only this instance can make one that [`open_sealed`] accepts.
pub fn seal(key: &Secret, purpose: &str, value: &str) -> String {
    use chacha20poly1305::aead::Aead;
    let digest = mac(key, purpose, &["seal\n", value])
        .finalize()
        .into_bytes();
    let nonce: [u8; 12] = digest[..12].try_into().expect("a digest is 32 bytes");
    let sealed = purpose_cipher(key, purpose)
        .encrypt(&nonce.into(), value.as_bytes())
        .expect("encrypting in memory cannot fail");
    URL_SAFE_NO_PAD.encode([nonce.as_slice(), &sealed].concat())
}

/// The value [`seal`] sealed for `purpose`, or None for a token this instance did not make (tampered, another
/// purpose, another key).
pub fn open_sealed(key: &Secret, purpose: &str, token: &str) -> Option<String> {
    use chacha20poly1305::aead::Aead;
    // A token of ours holds a short value; a longer one is refused before decoding.
    if token.len() > 1_024 {
        return None;
    }
    let bytes = URL_SAFE_NO_PAD.decode(token).ok()?;
    if bytes.len() < 12 + 16 {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(12);
    let nonce: [u8; 12] = nonce.try_into().ok()?;
    let plain = purpose_cipher(key, purpose)
        .decrypt(&nonce.into(), sealed)
        .ok()?;
    String::from_utf8(plain).ok()
}

fn purpose_cipher(key: &Secret, purpose: &str) -> chacha20poly1305::ChaCha20Poly1305 {
    use chacha20poly1305::KeyInit;
    let derived =
        Sha256::digest(format!("outreach sealed link key\n{purpose}\n{}", key.expose()).as_bytes());
    chacha20poly1305::ChaCha20Poly1305::new(&derived)
}

#[cfg(test)]
mod seal_tests {
    use super::*;

    #[test]
    fn sealed_tokens_are_opaque_stable_and_refuse_tampering() {
        let key = Secret::new("instance-key");
        let token = seal(&key, "unsubscribe", "ada@example.org");
        assert!(
            !token.contains("ada") && !token.contains("example"),
            "{token}"
        );
        assert!(
            token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(
            token,
            seal(&key, "unsubscribe", "ada@example.org"),
            "the same value, the same token"
        );
        assert_ne!(token, seal(&key, "unsubscribe", "bob@example.org"));
        assert_eq!(
            open_sealed(&key, "unsubscribe", &token).as_deref(),
            Some("ada@example.org")
        );
        assert_eq!(open_sealed(&key, "click", &token), None, "another purpose");
        assert_eq!(
            open_sealed(&Secret::new("other"), "unsubscribe", &token),
            None
        );
        let mut tampered = token.clone().into_bytes();
        tampered[20] = if tampered[20] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            open_sealed(&key, "unsubscribe", &String::from_utf8(tampered).unwrap()),
            None
        );
        assert_eq!(open_sealed(&key, "unsubscribe", "short"), None);
    }
}
