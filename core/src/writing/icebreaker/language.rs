//! The language a template is written in, so its icebreakers are written in the same one: the most of each
//! language's frequent short words, none below two.

const WORDS: [(&str, &[&str]); 5] = [
    (
        "en",
        &[
            "the", "and", "you", "we", "to", "is", "are", "our", "your", "for", "with", "would",
            "hope", "i", "it", "of", "this",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "und", "ist", "wir", "sie", "ihr", "ihre", "ihnen", "mit", "uns",
            "für", "ein", "eine", "nicht", "ich",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "et", "est", "nous", "vous", "votre", "vos", "pour", "avec", "une",
            "des", "je", "pas", "ce", "du",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "los", "las", "y", "es", "que", "su", "sus", "para", "con", "una", "por",
            "nuestro", "usted", "del", "le",
        ],
    ),
    (
        "fi",
        &[
            "ja", "on", "että", "te", "teidän", "me", "meidän", "kanssa", "olemme", "voisimme",
            "tai", "se", "hei", "kiitos", "ei", "myös", "tämä",
        ],
    ),
];

/// The language of a text (HTML tags and `{{variables}}` ignored), if it has enough words of one.
pub fn language_of(text: &str) -> Option<&'static str> {
    let text = crate::campaigns::personalise::html_text(text).to_lowercase();
    let mut words: Vec<&str> = Vec::new();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let (before, after) = match rest.find("{{") {
            Some(start) => (
                &rest[..start],
                rest[start..]
                    .split_once("}}")
                    .map_or("", |(_, after)| after),
            ),
            None => (rest, ""),
        };
        words.extend(
            before
                .split(|c: char| !c.is_alphanumeric())
                .filter(|word| !word.is_empty()),
        );
        rest = after;
    }
    let (language, count) = WORDS
        .iter()
        .map(|(code, list)| {
            (
                *code,
                words.iter().filter(|word| list.contains(word)).count(),
            )
        })
        .max_by_key(|(_, count)| *count)?;
    (count >= 2).then_some(language)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_tell_their_language() {
        assert_eq!(
            language_of(
                "<p>{{icebreaker | Hope the week is going well.}}</p><p>We bake for cafés like yours.</p>"
            ),
            Some("en")
        );
        assert_eq!(
            language_of("<p>Hallo {{businessName}}, wir backen für Sie und Ihr Team.</p>"),
            Some("de")
        );
        assert_eq!(
            language_of("Bonjour, nous livrons le pain pour votre café."),
            Some("fr")
        );
        assert_eq!(
            language_of("Hola, le escribo para ofrecer pan a su cafetería con entrega diaria."),
            Some("es")
        );
        assert_eq!(
            language_of("Hei, leivomme teidän kahvilallenne ja toimitamme myös aamuisin."),
            Some("fi")
        );
        assert_eq!(language_of("{{icebreaker}}"), None);
    }
}
