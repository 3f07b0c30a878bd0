//! Searching text for ASCII markers (tags, placeholders, attribute names) without regard to letter case.
//!
//! Lower-casing a whole text and slicing the original with offsets found in the copy is wrong for any text: some
//! characters change their length in UTF-8 when their case changes ('İ' grows, the Kelvin sign shrinks), so the
//! offsets drift and a slice can split a character (a panic) or cut the wrong bytes. These helpers search the text
//! itself. An ASCII needle's bytes never occur inside a multi-byte character, so every offset they return is a
//! character boundary of the text searched.

/// The offset of the first `needle` at or after `from`, comparing ASCII letters without case. `needle` must be ASCII.
pub fn find_ignore_ascii_case(text: &str, needle: &str, from: usize) -> Option<usize> {
    debug_assert!(
        needle.is_ascii(),
        "an ASCII needle keeps offsets on boundaries"
    );
    let (haystack, needle) = (text.as_bytes(), needle.as_bytes());
    let first = *needle.first()?;
    if haystack.len() < needle.len() {
        return None;
    }
    (from..=haystack.len() - needle.len()).find(|&at| {
        haystack[at].eq_ignore_ascii_case(&first)
            && haystack[at..at + needle.len()].eq_ignore_ascii_case(needle)
    })
}

/// Whether `text` starts with the ASCII `prefix` at `at`, without regard to ASCII case.
pub fn starts_with_ignore_ascii_case(text: &str, at: usize, prefix: &str) -> bool {
    text.as_bytes()
        .get(at..at + prefix.len())
        .is_some_and(|bytes| bytes.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// `text` with every `needle` (ASCII, any case) replaced by `replacement`.
pub fn replace_ignore_ascii_case(text: &str, needle: &str, replacement: &str) -> String {
    let mut output = String::with_capacity(text.len());
    let mut position = 0;
    while let Some(found) = find_ignore_ascii_case(text, needle, position) {
        output.push_str(&text[position..found]);
        output.push_str(replacement);
        position = found + needle.len();
    }
    output.push_str(&text[position..]);
    output
}

/// A form field's text without its surrounding spaces; None when it is missing or blank.
pub fn filled(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_the_texts_own_whatever_its_case_mappings() {
        let text = "İ\u{212a}ẞ <SCRIPT>x</Script>";
        let at = find_ignore_ascii_case(text, "<script", 0).unwrap();
        assert_eq!(&text[at..at + 7], "<SCRIPT");
        let close = find_ignore_ascii_case(text, "</script", at).unwrap();
        assert_eq!(&text[close..], "</Script>");
        assert!(starts_with_ignore_ascii_case(text, at, "<script>"));
        assert!(!starts_with_ignore_ascii_case(
            text,
            text.len() - 1,
            "<script>"
        ));
        assert_eq!(find_ignore_ascii_case(text, "<style", 0), None);
        assert_eq!(find_ignore_ascii_case("", "x", 0), None);
        assert_eq!(
            replace_ignore_ascii_case(
                "İ [Business Name] \u{212a} [business name]",
                "[business name]",
                "Cafe"
            ),
            "İ Cafe \u{212a} Cafe"
        );
    }

    #[test]
    fn filled_trims_and_drops_blank_text() {
        assert_eq!(filled(&Some("  Ada ".into())), Some("Ada".into()));
        assert_eq!(filled(&Some("   ".into())), None);
        assert_eq!(filled(&None), None);
    }
}
