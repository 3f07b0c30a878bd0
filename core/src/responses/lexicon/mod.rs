//! The offline classifier's cues in English, German, French, Spanish and Finnish: phrases folded to lowercase ASCII
//! (see `text::fold`), matched on word boundaries, a trailing `*` matching any ending (Finnish and German inflect).
//! Each cue list is what a prospect writes when they mean that thing; they were written from how people answer
//! sales emails, then checked against the development set (`core/data/replies/dev.jsonl`).

mod escalation;
mod intent;
mod machine;

pub use escalation::*;
pub use intent::*;
pub use machine::*;

/// The languages the offline classifier reads, as ISO 639-1 codes.
pub const LANGUAGES: [&str; 5] = ["en", "de", "fr", "es", "fi"];

/// Frequent short words of each language, to tell which one a reply is written in.
pub const STOPWORDS: [(&str, &[&str]); 5] = [
    (
        "en",
        &[
            "the", "and", "you", "we", "to", "is", "are", "our", "not", "for", "this", "with",
            "please", "thanks", "have", "it", "of", "me", "i", "be", "can", "would", "your",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "und", "ist", "wir", "sie", "nicht", "ich", "mit", "uns", "bitte",
            "danke", "haben", "ein", "eine", "fur", "zu", "es", "auf", "ihr", "ihnen", "mir",
            "kein", "keine",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "et", "est", "nous", "vous", "pas", "je", "avec", "pour", "merci",
            "une", "un", "des", "de", "ne", "sommes", "avons", "moi", "ce", "cette", "votre",
            "mais",
        ],
    ),
    (
        "es",
        &[
            "el", "los", "las", "y", "es", "nosotros", "usted", "no", "yo", "con", "para",
            "gracias", "una", "por", "favor", "que", "de", "estamos", "tenemos", "me", "su",
            "pero", "muy", "lo",
        ],
    ),
    (
        "fi",
        &[
            "ja",
            "on",
            "ei",
            "me",
            "te",
            "olen",
            "olemme",
            "kiitos",
            "meilla",
            "teidan",
            "se",
            "etta",
            "mutta",
            "nyt",
            "voi",
            "olisi",
            "kanssa",
            "meille",
            "teille",
            "hei",
            "terveisin",
            "emme",
            "en",
        ],
    ),
];
