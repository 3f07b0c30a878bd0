//! The rules that read facts from a page's sentences, in English, German, French, Spanish and Finnish. A rule
//! names a trigger (a run of words such as "founded in", "bekannt für", "au cœur du") and takes the claim from the
//! words after it, verbatim, so every claim is a span of its quote.

use chrono::{Datelike, NaiveDate};

use super::page::{Block, Page, sentences};
use super::phrases::*;
use crate::writing::icebreaker::{Fact, FactKind};

/// One word of a sentence: its span without surrounding punctuation, and the punctuation that ends it.
#[derive(Debug, Clone)]
struct Word<'a> {
    start: usize,
    end: usize,
    text: &'a str,
    lower: String,
    /// Whether punctuation (`, . ; : ! ?` or a dash) ends the word or stands alone after it.
    stop_after: bool,
}

fn words(sentence: &str) -> Vec<Word<'_>> {
    let mut found: Vec<Word<'_>> = Vec::new();
    let mut offset = 0;
    for raw in sentence.split(' ') {
        let raw_start = offset;
        offset += raw.len() + 1;
        let core_start = raw
            .char_indices()
            .find(|(_, c)| c.is_alphanumeric())
            .map(|(index, _)| index);
        let Some(core_start) = core_start else {
            // Punctuation standing alone (" : ", " – ") ends the word before it.
            if raw.chars().any(|c| ",.;:!?–—-|".contains(c))
                && let Some(last) = found.last_mut()
            {
                last.stop_after = true;
            }
            continue;
        };
        let core_end = raw
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_alphanumeric())
            .map(|(index, c)| index + c.len_utf8())
            .unwrap_or(raw.len());
        let text = &raw[core_start..core_end];
        let tail = &raw[core_end..];
        found.push(Word {
            start: raw_start + core_start,
            end: raw_start + core_end,
            text,
            lower: text.to_lowercase(),
            stop_after: tail.chars().any(|c| ",.;:!?–—|)".contains(c)),
        });
    }
    found
}

/// The position after the longest trigger starting at `at`, if one does.
fn trigger_at(words: &[Word<'_>], at: usize, triggers: &[&[&str]]) -> Option<usize> {
    triggers
        .iter()
        .filter(|trigger| {
            trigger.iter().enumerate().all(|(offset, expected)| {
                words
                    .get(at + offset)
                    .is_some_and(|word| word.lower == *expected)
            }) && !trigger[..trigger.len() - 1]
                .iter()
                .enumerate()
                .any(|(offset, _)| words[at + offset].stop_after)
        })
        .map(|trigger| at + trigger.len())
        .max()
}

const ARTICLES: &[&str] = &[
    "the",
    "our",
    "a",
    "an",
    "its",
    "das",
    "die",
    "der",
    "den",
    "dem",
    "unsere",
    "unser",
    "unseren",
    "unserem",
    "ein",
    "eine",
    "einen",
    "le",
    "la",
    "les",
    "l",
    "notre",
    "nos",
    "un",
    "une",
    "el",
    "los",
    "las",
    "nuestro",
    "nuestra",
    "nuestros",
    "nuestras",
    "una",
    "is",
    "ist",
    "est",
    "es",
    "on",
    "are",
    "sind",
    "son",
    "tittelillä",
    "nimellä",
    "palkinnolla",
    "title",
    "of",
];

/// The words after a trigger up to punctuation or a stop word, at most `limit`, leading articles skipped: the span.
fn phrase(words: &[Word<'_>], from: usize, limit: usize, stops: &[&str]) -> Option<(usize, usize)> {
    let mut at = from;
    while words
        .get(at)
        .is_some_and(|word| ARTICLES.contains(&word.lower.as_str()))
    {
        if words[at].stop_after {
            return None;
        }
        at += 1;
    }
    let first = words.get(at)?;
    let mut end = first.end;
    for (taken, word) in words[at..].iter().enumerate() {
        if taken >= limit || (taken > 0 && stops.contains(&word.lower.as_str())) {
            break;
        }
        end = word.end;
        if word.stop_after {
            break;
        }
    }
    Some((first.start, end))
}

fn is_year(word: &Word<'_>, today: NaiveDate) -> bool {
    word.text.len() == 4
        && word.text.chars().all(|c| c.is_ascii_digit())
        && word
            .text
            .parse::<i32>()
            .is_ok_and(|year| (1800..=today.year()).contains(&year))
}

const TITLES: &[&str] = &[
    "dr", "prof", "doctora", "doctor", "dra", "la", "el", "le", "the", "mr", "mrs", "ms", "med",
    "dent", "mme", "m", "herr", "frau",
];
/// Capitalised words that do not start names.
const NOT_NAMES: &[&str] = &[
    "the", "our", "we", "i", "today", "team", "ihr", "ihre", "sie", "wir", "unser", "unsere",
    "notre", "nous", "nuestro", "nuestra", "somos", "meidän", "me", "he", "she", "she's", "he's",
    "they", "this", "his", "her",
];

/// A person's name at `at` (titles skipped): two or three capitalised words, not the business's own name.
fn name_at(words: &[Word<'_>], mut at: usize, business: &str) -> Option<(usize, usize)> {
    while words
        .get(at)
        .is_some_and(|word| TITLES.contains(&word.lower.as_str()))
    {
        at += 1;
    }
    let mut taken: Vec<&Word<'_>> = Vec::new();
    for word in &words[at..] {
        let capitalised = word.text.chars().next().is_some_and(char::is_uppercase)
            && word.text.chars().count() >= 2
            && !word.text.chars().any(|c| c.is_ascii_digit())
            && !word.text.chars().all(char::is_uppercase)
            && !NOT_NAMES.contains(&word.lower.as_str());
        if !capitalised || taken.len() == 3 {
            break;
        }
        taken.push(word);
        if word.stop_after {
            break;
        }
    }
    // "Konditormeisterin Klara Sommer": a German job title before the name is not part of it.
    if taken.len() == 3
        && ["in", "er", "meister"]
            .iter()
            .any(|ending| taken[0].lower.ends_with(ending))
    {
        taken.remove(0);
    }
    if taken.len() < 2 {
        return None;
    }
    // The business's own name ("Heladería Polar"); a family name shared with it ("Thomas Hoffmann" of "Bäckerei
    // Hoffmann") is still a person's.
    let business = business.to_lowercase();
    if taken.iter().all(|word| business.contains(&word.lower)) {
        return None;
    }
    Some((taken[0].start, taken[taken.len() - 1].end))
}

/// A sentence that speaks of others: congratulations, neighbours, partners, friends.
fn about_others(lower: &str) -> bool {
    [
        "congratulat",
        "congrats",
        "glückwunsch",
        "gratulier",
        "félicit",
        "felicidades",
        "felicitamos",
        "enhorabuena",
        "onnittel",
        "neighbour",
        "neighbor",
        "nachbar",
        "voisin",
        "vecino",
        "naapuri",
        "friends",
        "amigos",
        "partner",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// Sentences that date something other than the business: cookies, copyright, a service added, an owner's tenure.
fn not_a_founding(lower: &str) -> bool {
    let padded = format!(" {lower} ");
    [
        "cookie",
        "©",
        "copyright",
        "gdpr",
        "dsgvo",
        "rgpd",
        "owner",
        "inhaber",
        "propriétaire",
        "propietari",
        "omistaja",
        "took over",
        "übernahm",
        "bought",
        "repris",
        "joined",
        "evä",
    ]
    .iter()
    .any(|word| lower.contains(word))
        || [
            " also ",
            " auch ",
            " aussi ",
            " también ",
            " myös ",
            " now ",
            " jetzt ",
        ]
        .iter()
        .any(|word| padded.contains(word))
}

/// The facts one page gives.
pub fn page_facts(page: &Page, business: &str, today: NaiveDate) -> Vec<Fact> {
    let mut facts = Vec::new();
    let fact = |kind, claim: &str, quote: &str| Fact {
        kind,
        claim: claim.to_string(),
        url: page.url.clone(),
        quote: quote.to_string(),
    };
    for block in page.blocks.iter().filter(|block| block.ignored.is_none()) {
        if stale(block, today) {
            continue;
        }
        if let Some(headline) = news(block, today) {
            facts.push(fact(FactKind::News, headline, &block.text));
        }
        for sentence in sentences(&block.text) {
            for (kind, span) in sentence_facts(sentence, business, today) {
                facts.push(fact(kind, &sentence[span.0..span.1], sentence));
            }
        }
    }
    facts.extend(json_ld_facts(page, business, today));
    facts
}

/// A block of a dated item older than two years.
fn stale(block: &Block, today: NaiveDate) -> bool {
    block
        .date
        .is_some_and(|date| (today - date).num_days() > 731)
}

/// A dated heading of this business, not older than two years nor more than a year ahead: its text.
fn news(block: &Block, today: NaiveDate) -> Option<&str> {
    let date = block.date?;
    block.heading?;
    let days = (today - date).num_days();
    let lower = block.text.to_lowercase();
    let length = block.text.split(' ').count();
    ((-366..=731).contains(&days) && (2..=14).contains(&length) && !about_others(&lower))
        .then_some(block.text.as_str())
}

fn sentence_facts(
    sentence: &str,
    business: &str,
    today: NaiveDate,
) -> Vec<(FactKind, (usize, usize))> {
    let words = words(sentence);
    let lower = sentence.to_lowercase();
    let mut found = Vec::new();
    let others = about_others(&lower);
    for at in 0..words.len() {
        if let Some(after) = trigger_at(&words, at, FOUNDED)
            && !not_a_founding(&lower)
            && let Some(year) = words[after..(after + 6).min(words.len())]
                .iter()
                .find(|word| is_year(word, today))
        {
            found.push((FactKind::Founded, (year.start, year.end)));
        }
        if let Some(after) = trigger_at(&words, at, PRODUCT)
            && !others
            && let Some(span) = phrase(&words, after, 5, PRODUCT_STOPS)
        {
            found.push((FactKind::Product, span));
        }
        if let Some(after) = trigger_at(&words, at, AWARD)
            && !others
            && let Some(span) = phrase(&words, after, 8, AWARD_STOPS)
            && !old_year(&sentence[span.0..span.1], today)
            && !old_year(sentence, today)
        {
            found.push((FactKind::Award, span));
        }
        if let Some(after) = trigger_at(&words, at, NEIGHBOURHOOD)
            && !others
            && let Some(span) = place_at(&words, after)
        {
            found.push((FactKind::Neighbourhood, span));
        }
        if let Some(span) = owner_at(&words, at, business) {
            found.push((FactKind::Owner, span));
        }
    }
    found
}

/// A place name after a trigger: one to three capitalised words (an article before it skipped).
fn place_at(words: &[Word<'_>], mut at: usize) -> Option<(usize, usize)> {
    if words
        .get(at)
        .is_some_and(|word| ["la", "le", "el", "the", "l"].contains(&word.lower.as_str()))
    {
        at += 1;
    }
    let mut end = None;
    for word in words[at..].iter().take(3) {
        if !word.text.chars().next().is_some_and(char::is_uppercase) {
            break;
        }
        end = Some(word.end);
        if word.stop_after {
            break;
        }
    }
    Some((words.get(at)?.start, end?))
}

/// A person named as owner or founder around word `at`: after a role ("Inhaber: Thomas Hoffmann"), after "founded
/// by"-like words, before ", role" ("Margot Lefèvre, fondatrice"), or before an owner's verb at the sentence start.
fn owner_at(words: &[Word<'_>], at: usize, business: &str) -> Option<(usize, usize)> {
    let word = &words[at];
    let role = |word: &Word<'_>| {
        OWNER_ROLES.contains(&word.lower.as_str())
            || word.lower.ends_with("inhaber")
            || word.lower.ends_with("inhaberin")
            || (word.lower.ends_with("omistaja") && word.lower.len() > 8)
    };
    if role(word) {
        // The name follows within a few words, unless the role is "of" something ("fundadora de Heladería Polar").
        for next in at + 1..(at + 5).min(words.len()) {
            let lower = words[next].lower.as_str();
            if ["de", "of", "von", "du", "des", "del", "d"].contains(&lower) && next == at + 1 {
                break;
            }
            if let Some(span) = name_at(words, next, business) {
                return Some(span);
            }
            if words[next]
                .text
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
                && !TITLES.contains(&lower)
            {
                break;
            }
        }
        return None;
    }
    if let Some(after) = trigger_at(words, at, BY) {
        return name_at(words, after, business);
    }
    // "Founded in 2009 by Maria Lindqvist", "Fundada en 2003 por la doctora Elena Ruiz".
    if trigger_at(words, at, FOUNDED).is_some() {
        for next in at + 1..(at + 5).min(words.len()) {
            if ["by", "von", "par", "por"].contains(&words[next].lower.as_str()) {
                return name_at(words, next + 1, business);
            }
            if words[next].stop_after && next > at + 1 {
                break;
            }
        }
        return None;
    }
    // "Margot Lefèvre, fondatrice et cheffe" / "Sabine Fischer eröffnete …" at the start of the sentence.
    if at == 0 || (at == 1 && TITLES.contains(&words[0].lower.as_str())) {
        let span = name_at(words, at, business)?;
        let last = words.iter().position(|word| word.end == span.1)?;
        let next = words.get(last + 1)?;
        let role_after = words[last].stop_after
            && (role(next)
                || (["the", "la", "le", "el"].contains(&next.lower.as_str())
                    && words.get(last + 2).is_some_and(role)));
        let verb_after = !words[last].stop_after && OWNER_VERBS.contains(&next.lower.as_str());
        if role_after || verb_after {
            return Some(span);
        }
    }
    None
}

/// Whether a text names a year more than two years back.
fn old_year(text: &str, today: NaiveDate) -> bool {
    words(text).iter().any(|word| {
        word.text.len() == 4
            && word
                .text
                .parse::<i32>()
                .is_ok_and(|year| (1800..today.year() - 2).contains(&year))
    })
}

/// JSON-LD's founder and founding date, each kept only with a visible sentence of the page that states it.
fn json_ld_facts(page: &Page, business: &str, today: NaiveDate) -> Vec<Fact> {
    let mut wanted: Vec<(FactKind, String)> = Vec::new();
    for value in &page.json_ld {
        collect_json_ld(value, &mut wanted);
    }
    let mut facts = Vec::new();
    for (kind, claim) in wanted {
        let claim = match kind {
            FactKind::Founded => claim.chars().take(4).collect::<String>(),
            _ => claim.trim().to_string(),
        };
        if claim.is_empty()
            || (kind == FactKind::Owner && business.to_lowercase().contains(&claim.to_lowercase()))
        {
            continue;
        }
        if kind == FactKind::Founded
            && !claim
                .parse::<i32>()
                .is_ok_and(|year| (1800..=today.year()).contains(&year))
        {
            continue;
        }
        let sentence = page
            .blocks
            .iter()
            .filter(|block| block.ignored.is_none() && !stale(block, today))
            .flat_map(|block| sentences(&block.text))
            .find(|sentence| {
                words(sentence).iter().any(|word| word.text == claim)
                    || (kind == FactKind::Owner && sentence.contains(claim.as_str()))
            })
            .filter(|sentence| {
                kind != FactKind::Founded || !not_a_founding(&sentence.to_lowercase())
            });
        if let Some(sentence) = sentence {
            facts.push(Fact {
                kind,
                claim: claim.clone(),
                url: page.url.clone(),
                quote: sentence.to_string(),
            });
        }
    }
    facts
}

fn collect_json_ld(value: &serde_json::Value, wanted: &mut Vec<(FactKind, String)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("foundingDate", serde_json::Value::String(date)) => {
                        wanted.push((FactKind::Founded, date.clone()));
                    }
                    ("founder", serde_json::Value::String(name)) => {
                        wanted.push((FactKind::Owner, name.clone()));
                    }
                    ("founder", serde_json::Value::Object(person)) => {
                        if let Some(name) = person.get("name").and_then(|name| name.as_str()) {
                            wanted.push((FactKind::Owner, name.to_string()));
                        }
                    }
                    _ => collect_json_ld(item, wanted),
                }
            }
        }
        serde_json::Value::Array(items) => {
            items.iter().for_each(|item| collect_json_ld(item, wanted))
        }
        _ => {}
    }
}
