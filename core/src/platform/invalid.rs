//! `Invalid`: what someone gave (a request, a form, an uploaded file, a setting) is refused, with the message they
//! read (the spec's wording where it gives one). A typed error where a bare `String` said nothing of what it was.

/// A refusal and its message, shown as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

impl From<&str> for Invalid {
    fn from(message: &str) -> Self {
        Invalid(message.to_string())
    }
}

impl From<String> for Invalid {
    fn from(message: String) -> Self {
        Invalid(message)
    }
}

/// The message, for an answer or a record that keeps text.
impl From<Invalid> for String {
    fn from(invalid: Invalid) -> Self {
        invalid.0
    }
}

/// The message, read as text.
impl std::ops::Deref for Invalid {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<&str> for Invalid {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Invalid {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}
