//! The icebreaker: a first line written from facts read on the prospect's own website, every claim traced to the
//! page and the exact sentence it came from. No fact, no line. The offline writer fills a template of the campaign's
//! language with one fact; a configured model may write the line instead, but its line is kept only when every
//! number, name and proper noun in it appears in the facts (`check`), else the offline line is used.

mod language;
pub mod model;

pub use language::language_of;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

/// The languages lines are written in, as ISO 639-1 codes.
pub const LANGUAGES: [&str; 5] = ["en", "de", "fr", "es", "fi"];

/// The longest line a user may save.
pub const MAX_LINE_CHARS: usize = 300;

/// What a fact says about the business.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// The founding year, or a "since" year of the business itself.
    Founded,
    /// The owner's or founder's name.
    Owner,
    /// A signature product or service.
    Product,
    /// An award, rating or press mention.
    Award,
    /// A recent news item or event (its headline).
    News,
    /// The neighbourhood the business is in.
    Neighbourhood,
}

impl FactKind {
    /// Which fact a line is written from first: the most particular to this business.
    fn rank(self) -> u8 {
        match self {
            FactKind::Award => 0,
            FactKind::News => 1,
            FactKind::Product => 2,
            FactKind::Founded => 3,
            FactKind::Neighbourhood => 4,
            FactKind::Owner => 5,
        }
    }
}

/// One fact: the claim (words of the quote, verbatim), the page it is on and the sentence it comes from, exactly as
/// it reads in the page's visible text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Fact {
    pub kind: FactKind,
    pub claim: String,
    pub url: String,
    pub quote: String,
}

crate::text_enum! {
    /// Where a line came from: the offline templates, the model, the user's edit, or the user dropped it (the
    /// prospect gets the template's fallback).
    pub enum Origin ("icebreaker origin") {
        Offline = "offline",
        Model = "model",
        Edited = "edited",
        Dropped = "dropped",
    }
}

/// A written line and the facts it was written from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub language: String,
    pub origin: Origin,
    /// The facts the line states (its sources).
    pub sources: Vec<Fact>,
}

/// A supported language code, else English.
pub fn language_or_default(language: Option<&str>) -> &'static str {
    let code = language
        .map(|code| code.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let code = code.split(['-', '_']).next().unwrap_or_default();
    LANGUAGES
        .iter()
        .copied()
        .find(|known| *known == code)
        .unwrap_or("en")
}

/// The offline line: the highest-ranked fact in the language's template. None without facts.
pub fn offline_line(facts: &[Fact], language: &str, today: NaiveDate) -> Option<Line> {
    let language = language_or_default(Some(language));
    let fact = facts.iter().min_by_key(|fact| fact.kind.rank())?;
    let recent = fact
        .claim
        .parse::<i32>()
        .is_ok_and(|year| year >= today.year() - 3);
    let template = template(fact.kind, language, recent);
    Some(Line {
        text: template.replace("{v}", fact.claim.trim()),
        language: language.to_string(),
        origin: Origin::Offline,
        sources: vec![fact.clone()],
    })
}

fn template(kind: FactKind, language: &str, recent: bool) -> &'static str {
    use FactKind::*;
    match (kind, language) {
        (Award, "de") => "Herzlichen Glückwunsch: {v} – das ist verdient.",
        (Award, "fr") => "Félicitations pour cette distinction : {v}.",
        (Award, "es") => "¡Enhorabuena por el reconocimiento: {v}!",
        (Award, "fi") => "Onnittelut tunnustuksesta: {v}!",
        (Award, _) => "Congratulations on {v} – well deserved.",
        (News, "de") => "Ich habe Ihre Neuigkeit gelesen: „{v}“ – schön zu sehen.",
        (News, "fr") => "J’ai vu votre actualité : « {v} » – bravo.",
        (News, "es") => "Vi su noticia: «{v}». ¡Enhorabuena!",
        (News, "fi") => "Luin uutisenne: ”{v}” – hienoa!",
        (News, _) => "I saw your news: “{v}” – great to see.",
        (Product, "de") => "Ihre Spezialität hat sich herumgesprochen: {v}.",
        (Product, "fr") => "Votre spécialité fait parler d’elle : {v}.",
        (Product, "es") => "Su especialidad tiene fama: {v}.",
        (Product, "fi") => "Erikoisuutenne on tullut tutuksi: {v}.",
        (Product, _) => "Your speciality has quite a reputation: {v}.",
        (Founded, "de") if recent => "Seit {v} dabei – ein starker Start.",
        (Founded, "fr") if recent => "Depuis {v} seulement, et déjà un bel élan.",
        (Founded, "es") if recent => "Desde {v}, y ya con un gran arranque.",
        (Founded, "fi") if recent => "Vuodesta {v} – hieno alku yritykselle.",
        (Founded, _) if recent => "Since {v} – a strong start for a young business.",
        (Founded, "de") => "Seit {v} im Geschäft – das ist eine beachtliche Leistung.",
        (Founded, "fr") => "Depuis {v} – une belle longévité pour une entreprise.",
        (Founded, "es") => "Desde {v}: toda una trayectoria.",
        (Founded, "fi") => "Vuodesta {v} – se on pitkä ja hieno taival.",
        (Founded, _) => "Since {v} – that is a long run for a business, and it shows.",
        (Neighbourhood, "de") => "Ein Standort wie Ihrer ({v}) ist ein echter Vorteil.",
        (Neighbourhood, "fr") => "Une adresse comme la vôtre ({v}), c’est un vrai atout.",
        (Neighbourhood, "es") => "Un local como el suyo ({v}) es una gran ventaja.",
        (Neighbourhood, "fi") => "Sijaintinne ({v}) on loistava paikka yritykselle.",
        (Neighbourhood, _) => "A spot like yours ({v}) is a real advantage.",
        (Owner, "de") => {
            "Auf Ihrer Website habe ich gelesen, dass {v} hinter dem Unternehmen steht – daher schreibe ich direkt."
        }
        (Owner, "fr") => {
            "J’ai lu sur votre site que {v} est à l’origine de l’entreprise, alors je vous écris directement."
        }
        (Owner, "es") => {
            "Leí en su web que {v} está detrás del negocio, así que le escribo directamente."
        }
        (Owner, "fi") => "Luin sivuiltanne, että yrityksen takana on {v}, joten kirjoitan suoraan.",
        (Owner, _) => {
            "I read on your website that {v} is behind the business, so I am writing directly."
        }
    }
}

/// Words of the offline templates: they may be capitalised in a line without coming from the facts.
fn template_words() -> std::collections::HashSet<String> {
    let mut words = std::collections::HashSet::new();
    for kind in [
        FactKind::Award,
        FactKind::News,
        FactKind::Product,
        FactKind::Founded,
        FactKind::Neighbourhood,
        FactKind::Owner,
    ] {
        for language in LANGUAGES {
            for recent in [false, true] {
                for word in words_of(template(kind, language, recent)) {
                    words.insert(word.to_lowercase());
                }
            }
        }
    }
    words
}

/// The words of a text (letters, digits, apostrophes and hyphens inside).
pub fn words_of(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' || c == '.'))
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether a line states nothing beyond its facts: every number in it appears in a fact's quote, and every name or
/// proper noun (a capitalised word that is not a common word of the line's opening or of the templates) appears in
/// the facts or is the business's own name. The reason when it does not.
pub fn check(line: &str, facts: &[Fact], business_name: &str) -> Result<(), String> {
    let known: String = facts
        .iter()
        .flat_map(|fact| [fact.quote.as_str(), fact.claim.as_str()])
        .chain([business_name])
        .collect::<Vec<&str>>()
        .join(" \n ")
        .to_lowercase();
    let known_words: std::collections::HashSet<String> =
        words_of(&known).into_iter().map(str::to_string).collect();
    let common = template_words();
    if line.trim().is_empty() {
        return Err("the line is empty".into());
    }
    if line.chars().count() > MAX_LINE_CHARS {
        return Err(format!(
            "the line is longer than {MAX_LINE_CHARS} characters"
        ));
    }
    for number in numbers_of(line) {
        if !numbers_of(&known).contains(&number) {
            return Err(format!("the number {number} is not in the facts"));
        }
    }
    for word in words_of(line) {
        let lower = word.to_lowercase();
        let capitalised = word.chars().next().is_some_and(char::is_uppercase);
        if !capitalised || known_words.contains(&lower) || known.contains(&lower) {
            continue;
        }
        if common.contains(&lower) || OPENERS.contains(&lower.as_str()) {
            continue;
        }
        return Err(format!("“{word}” is not in the facts"));
    }
    Ok(())
}

/// Capitalised words a line may open a sentence with in the five languages.
const OPENERS: &[&str] = &[
    "i",
    "we",
    "you",
    "your",
    "our",
    "congratulations",
    "great",
    "what",
    "it",
    "that",
    "this",
    "saw",
    "read",
    "loved",
    "nice",
    "hi",
    "hello",
    "such",
    "a",
    "an",
    "the",
    "ich",
    "wir",
    "sie",
    "ihr",
    "ihre",
    "ihrem",
    "glückwunsch",
    "gratulation",
    "toll",
    "schön",
    "es",
    "das",
    "die",
    "der",
    "je",
    "nous",
    "vous",
    "votre",
    "bravo",
    "félicitations",
    "quel",
    "quelle",
    "une",
    "un",
    "le",
    "la",
    "les",
    "c’est",
    "vi",
    "he",
    "su",
    "sus",
    "enhorabuena",
    "felicidades",
    "qué",
    "el",
    "los",
    "las",
    "me",
    "minä",
    "luin",
    "huomasin",
    "onnittelut",
    "hienoa",
    "mahtavaa",
    "te",
    "teidän",
    "upeaa",
];

/// The digit runs of a text ("4.9" gives 4 and 9; "2026" gives 2026).
fn numbers_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .map(str::to_string)
        .collect()
}

/// A user's edit checked: at most 300 characters, and no variable personalisation does not know (nor the
/// icebreaker itself). Known variables are filled in for each recipient.
pub fn validate_edit(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.chars().count() > MAX_LINE_CHARS {
        return Err(format!(
            "The line is longer than {MAX_LINE_CHARS} characters."
        ));
    }
    for (name, _) in crate::campaigns::personalise::variables(text) {
        if name == "icebreaker"
            || !crate::campaigns::personalise::VARIABLES.contains(&name.as_str())
        {
            return Err(format!(
                "The line uses the unknown variable {{{{{name}}}}}. Known: {}.",
                crate::campaigns::personalise::VARIABLES
                    .iter()
                    .filter(|known| **known != "icebreaker")
                    .map(|known| format!("{{{{{known}}}}}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests;
