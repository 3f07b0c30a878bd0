//! A fetched page as the fact reader sees it: its visible text in blocks (paragraphs, headings, list items), each
//! with why it must not give facts (navigation, a cookie banner, a testimonial or another business's box,
//! placeholder text) and the date of the article or list item it is in (from `<time datetime>`), plus its JSON-LD.
//! Read with html5ever's tokenizer, so scripts, styles, comments and entities are handled as a browser would.

use std::cell::RefCell;

use chrono::NaiveDate;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

/// Why a block gives no facts although a visitor may see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ignored {
    Navigation,
    CookieBanner,
    /// A testimonial, review, partner or sidebar box: other people's words, often about other businesses.
    OtherVoices,
    Placeholder,
}

/// A run of visible text between block boundaries.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub text: String,
    /// 1–6 for `<h1>`–`<h6>`.
    pub heading: Option<u8>,
    pub ignored: Option<Ignored>,
    /// The date of the innermost article, list item or section holding it that has a `<time datetime>`.
    pub date: Option<NaiveDate>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    pub url: String,
    /// The `lang` of `<html>`.
    pub language: Option<String>,
    pub blocks: Vec<Block>,
    pub json_ld: Vec<serde_json::Value>,
    /// Same-page links: (href, text).
    pub links: Vec<(String, String)>,
}

/// Text no business writes about itself: site builders' and themes' sample text.
const PLACEHOLDERS: &[&str] = &[
    "lorem ipsum",
    "dolor sit amet",
    "your text here",
    "add a description",
    "add your",
    "click to edit",
    "sample text",
    "ihr text hier",
    "blindtext",
    "hier steht",
    "mustermann",
    "texte à modifier",
    "votre texte",
    "votre nom",
    "[année]",
    "su texto aquí",
    "texto de ejemplo",
    "tähän ",
    "jane doe",
    "john doe",
    "xxxx",
    "19xx",
    "20xx",
];

const BLOCK_TAGS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "li",
    "td",
    "th",
    "dt",
    "dd",
    "blockquote",
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "nav",
    "aside",
    "figcaption",
    "address",
    "ul",
    "ol",
    "table",
    "tr",
    "form",
    "br",
    "body",
    "title",
    "button",
    "label",
    "option",
    "figure",
];
/// Elements whose `<time>` dates what they hold.
const CONTAINERS: &[&str] = &["article", "li", "section", "tr", "dl"];
const SKIPPED: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "head", "select", "button",
];
const VOID: &[&str] = &[
    "br", "img", "meta", "link", "input", "hr", "source", "wbr", "area", "base", "col",
];

#[derive(Debug, Clone)]
struct Open {
    name: String,
    ignored: Option<Ignored>,
    hidden: bool,
    skipped: bool,
    container: Option<usize>,
    heading: Option<u8>,
}

#[derive(Default)]
struct State {
    stack: Vec<Open>,
    text: String,
    blocks: Vec<(Block, Vec<usize>)>,
    dates: Vec<Option<NaiveDate>>,
    json_ld: Vec<String>,
    in_json_ld: bool,
    language: Option<String>,
    links: Vec<(String, String)>,
    link: Option<(String, String)>,
}

struct Sink(RefCell<State>);

fn class_ignored(value: &str) -> Option<Ignored> {
    let value = value.to_lowercase();
    if ["cookie", "consent", "gdpr", "evaste"]
        .iter()
        .any(|word| value.contains(word))
    {
        return Some(Ignored::CookieBanner);
    }
    if [
        "testimonial",
        "review",
        "kundenstimme",
        "temoignage",
        "témoignage",
        "testimonio",
        "avis",
        "opinion",
        "partner",
        "sponsor",
        "quote",
        "related",
        "suosittel",
    ]
    .iter()
    .any(|word| value.contains(word))
    {
        return Some(Ignored::OtherVoices);
    }
    if ["placeholder", "lorem", "dummy"]
        .iter()
        .any(|word| value.contains(word))
    {
        return Some(Ignored::Placeholder);
    }
    None
}

impl State {
    fn flush(&mut self) {
        let text = normalise(&self.text);
        self.text.clear();
        if text.is_empty() || self.stack.iter().any(|open| open.skipped || open.hidden) {
            return;
        }
        let ignored = self
            .stack
            .iter()
            .rev()
            .find_map(|open| open.ignored)
            .or_else(|| {
                let lower = text.to_lowercase();
                PLACEHOLDERS
                    .iter()
                    .any(|marker| lower.contains(marker))
                    .then_some(Ignored::Placeholder)
            });
        let heading = self.stack.iter().rev().find_map(|open| open.heading);
        let containers: Vec<usize> = self
            .stack
            .iter()
            .rev()
            .filter_map(|open| open.container)
            .collect();
        self.blocks.push((
            Block {
                text,
                heading,
                ignored,
                date: None,
            },
            containers,
        ));
    }

    fn start(&mut self, name: &str, attributes: &[(String, String)], self_closing: bool) {
        let attribute = |key: &str| {
            attributes
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value.as_str())
        };
        if name == "html" {
            self.language = attribute("lang").map(str::to_string);
        }
        if name == "time"
            && let Some(date) = attribute("datetime").and_then(parse_date)
            && let Some(container) = self.stack.iter().rev().find_map(|open| open.container)
            && self.dates[container].is_none()
        {
            self.dates[container] = Some(date);
        }
        if name == "a"
            && let Some(href) = attribute("href")
        {
            self.link = Some((href.to_string(), String::new()));
        }
        if BLOCK_TAGS.contains(&name) {
            self.flush();
        }
        if VOID.contains(&name) || self_closing {
            return;
        }
        let mut ignored = match name {
            "nav" => Some(Ignored::Navigation),
            "blockquote" | "aside" | "q" => Some(Ignored::OtherVoices),
            _ => None,
        };
        if attribute("role") == Some("navigation") {
            ignored = Some(Ignored::Navigation);
        }
        for key in ["class", "id"] {
            if ignored.is_none()
                && let Some(value) = attribute(key)
            {
                ignored = class_ignored(value);
            }
        }
        let style = attribute("style")
            .unwrap_or_default()
            .replace(' ', "")
            .to_lowercase();
        let hidden = attribute("hidden").is_some()
            || attribute("aria-hidden") == Some("true")
            || style.contains("display:none")
            || style.contains("visibility:hidden");
        let container = CONTAINERS.contains(&name).then(|| {
            self.dates.push(None);
            self.dates.len() - 1
        });
        let heading = name
            .strip_prefix('h')
            .and_then(|level| level.parse::<u8>().ok())
            .filter(|level| (1..=6).contains(level));
        if name == "script" && attribute("type").is_some_and(|kind| kind.contains("ld+json")) {
            self.in_json_ld = true;
            self.json_ld.push(String::new());
        }
        self.stack.push(Open {
            name: name.to_string(),
            ignored,
            hidden,
            skipped: SKIPPED.contains(&name),
            container,
            heading,
        });
    }

    fn end(&mut self, name: &str) {
        if name == "a"
            && let Some((href, text)) = self.link.take()
        {
            self.links.push((href, normalise(&text)));
        }
        if BLOCK_TAGS.contains(&name) {
            self.flush();
        }
        if name == "script" {
            self.in_json_ld = false;
        }
        if let Some(position) = self.stack.iter().rposition(|open| open.name == name) {
            self.stack.truncate(position);
        }
    }

    fn characters(&mut self, text: &str) {
        if self.in_json_ld {
            if let Some(block) = self.json_ld.last_mut() {
                block.push_str(text);
            }
            return;
        }
        if self.stack.iter().any(|open| open.skipped || open.hidden) {
            return;
        }
        if let Some((_, link_text)) = self.link.as_mut() {
            link_text.push_str(text);
        }
        self.text.push_str(text);
    }
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut state = self.0.borrow_mut();
        match token {
            Token::TagToken(tag) => {
                let name = tag.name.to_string();
                match tag.kind {
                    TagKind::StartTag => {
                        let attributes: Vec<(String, String)> = tag
                            .attrs
                            .iter()
                            .map(|attribute| {
                                (
                                    attribute.name.local.to_string(),
                                    attribute.value.to_string(),
                                )
                            })
                            .collect();
                        state.start(&name, &attributes, tag.self_closing);
                        match name.as_str() {
                            "script" => return TokenSinkResult::RawData(RawKind::ScriptData),
                            "style" | "noscript" | "template" => {
                                return TokenSinkResult::RawData(RawKind::Rawtext);
                            }
                            "title" | "textarea" => {
                                return TokenSinkResult::RawData(RawKind::Rcdata);
                            }
                            _ => {}
                        }
                    }
                    TagKind::EndTag => state.end(&name),
                }
            }
            Token::CharacterTokens(text) => state.characters(&text),
            Token::EOFToken => state.flush(),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

impl Page {
    pub fn parse(html: &str, url: &str) -> Page {
        let sink = Sink(RefCell::new(State::default()));
        let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
        let input = BufferQueue::default();
        input.push_back(StrTendril::from(html));
        let _ = tokenizer.feed(&input);
        tokenizer.end();
        let state = tokenizer.sink.0.into_inner();
        let blocks = state
            .blocks
            .into_iter()
            .map(|(mut block, containers)| {
                block.date = containers.iter().find_map(|id| state.dates[*id]);
                block
            })
            .collect();
        Page {
            url: url.to_string(),
            language: state.language,
            blocks,
            json_ld: state
                .json_ld
                .iter()
                .filter_map(|text| serde_json::from_str(text.trim()).ok())
                .collect(),
            links: state.links,
        }
    }

    /// Everything a visitor can read, one block a line.
    pub fn visible_text(&self) -> String {
        self.blocks
            .iter()
            .map(|block| block.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `2026-05-10`, `2026-05-10T09:00`, `2026-05` → the date (the first of the month when no day).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let text = text.trim();
    let day = text.get(..10).unwrap_or(text);
    NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .ok()
        .or_else(|| NaiveDate::parse_from_str(&format!("{}-01", text.get(..7)?), "%Y-%m-%d").ok())
}

/// Runs of whitespace (also non-breaking) as one space, trimmed.
pub fn normalise(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c == '\u{a0}')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sentences of a block: split after `.`, `!` or `?` before a capital, digit or quote, except after
/// abbreviations, initials and ordinal numbers ("Dr.", "St.", "1. März").
pub fn sentences(text: &str) -> Vec<&str> {
    const ABBREVIATIONS: &[&str] = &[
        "dr", "st", "co", "mr", "mrs", "ms", "prof", "nr", "no", "inc", "ltd", "med", "dent", "vs",
        "etc", "z.b", "sr", "sra", "dra", "mme", "m", "mlle", "jr", "ca", "klo", "esim", "ks",
        "oy",
    ];
    let mut found = Vec::new();
    let mut start = 0;
    let characters: Vec<(usize, char)> = text.char_indices().collect();
    for (index, (offset, character)) in characters.iter().enumerate() {
        if !matches!(character, '.' | '!' | '?') {
            continue;
        }
        let next = characters.get(index + 1).map(|(_, c)| *c);
        let after = characters.get(index + 2).map(|(_, c)| *c);
        if next != Some(' ') {
            continue;
        }
        if !after.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit() || "“\"'«„”¡¿".contains(c))
        {
            continue;
        }
        if *character == '.' {
            let word = text[start..*offset]
                .rsplit(|c: char| c.is_whitespace())
                .next()
                .unwrap_or_default()
                .to_lowercase();
            if ABBREVIATIONS.contains(&word.as_str())
                || word.chars().count() == 1
                || (!word.is_empty() && word.len() <= 2 && word.chars().all(|c| c.is_ascii_digit()))
            {
                continue;
            }
        }
        let end = offset + character.len_utf8();
        let sentence = text[start..end].trim();
        if !sentence.is_empty() {
            found.push(sentence);
        }
        start = end;
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        found.push(rest);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_know_what_they_are_in_and_when() {
        let html = r#"<html lang="fi"><head><title>T</title><script>var x = "<p>no</p>";</script>
            <script type="application/ld+json">{"foundingDate": "1987"}</script></head><body>
            <div class="cookie-banner"><p>We use cookies since 2018.</p></div>
            <nav><a href="/about">About since 1987</a></nav>
            <main><h1>Caf&eacute; Aurora</h1><p>Founded in 1987 by Anna&nbsp;Virtanen.</p>
            <article><h2>New shop</h2><time datetime="2026-05-10">10 May</time><p>Open now.</p></article>
            <blockquote>Mokka, founded 1990.</blockquote><p style="display: none">Hidden 1999.</p>
            <p>Lorem ipsum, est. 1900.</p><!-- <p>comment 1800</p> --></main></body></html>"#;
        let page = Page::parse(html, "https://aurora.example/");
        assert_eq!(page.language.as_deref(), Some("fi"));
        assert_eq!(
            page.json_ld,
            vec![serde_json::json!({"foundingDate": "1987"})]
        );
        // Each block: its text, why it is ignored, its heading level and its date.
        type Seen<'a> = (&'a str, Option<Ignored>, Option<u8>, Option<NaiveDate>);
        let seen: Vec<Seen> = page
            .blocks
            .iter()
            .map(|block| {
                (
                    block.text.as_str(),
                    block.ignored,
                    block.heading,
                    block.date,
                )
            })
            .collect();
        let may = NaiveDate::from_ymd_opt(2026, 5, 10);
        assert_eq!(
            seen,
            vec![
                (
                    "We use cookies since 2018.",
                    Some(Ignored::CookieBanner),
                    None,
                    None
                ),
                ("About since 1987", Some(Ignored::Navigation), None, None),
                ("Café Aurora", None, Some(1), None),
                ("Founded in 1987 by Anna Virtanen.", None, None, None),
                ("New shop", None, Some(2), may),
                ("10 May", None, None, may),
                ("Open now.", None, None, may),
                (
                    "Mokka, founded 1990.",
                    Some(Ignored::OtherVoices),
                    None,
                    None
                ),
                (
                    "Lorem ipsum, est. 1900.",
                    Some(Ignored::Placeholder),
                    None,
                    None
                ),
            ]
        );
        assert_eq!(
            page.links,
            vec![("/about".to_string(), "About since 1987".to_string())]
        );
    }

    #[test]
    fn sentences_split_at_their_ends_only() {
        assert_eq!(
            sentences("Praxisinhaberin Dr. Julia Weber ist da. Seit 1. März 2026 neu! Wie? „Gut“."),
            vec![
                "Praxisinhaberin Dr. Julia Weber ist da.",
                "Seit 1. März 2026 neu!",
                "Wie?",
                "„Gut“."
            ]
        );
        assert_eq!(
            sentences("Rated 4.9 stars. J. R. R. wrote"),
            vec!["Rated 4.9 stars.", "J. R. R. wrote"]
        );
    }
}
