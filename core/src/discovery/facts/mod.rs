//! Facts worth a first line, read from the pages the enrichment crawl fetched: the founding year, the owner, a
//! signature product, awards and press, recent news and the neighbourhood. Each is kept with its page and the exact
//! sentence it comes from, as it reads in the page's visible text; navigation, cookie banners, placeholder text,
//! testimonials and other businesses' boxes, and news or awards older than two years give none. Offline: rules in
//! five languages over the page's structure (sentences of its blocks, headings with their `<time>`, JSON-LD); with a
//! configured model, also the facts it points at on the same pages, each checked against them (`model`).

pub mod eval;
pub mod model;
pub mod page;
mod phrases;
mod rules;

use chrono::NaiveDate;

pub use page::Page;

use crate::writing::icebreaker::{Fact, FactKind};

/// Words of links to pages that tell a business's story, news or menu (followed by the crawl after contact pages).
pub const STORY_WORDS: &[&str] = &[
    "about",
    "story",
    "history",
    "news",
    "blog",
    "menu",
    "press",
    "award",
    "ueber-uns",
    "uber-uns",
    "geschichte",
    "aktuelles",
    "neuigkeiten",
    "speisekarte",
    "a-propos",
    "apropos",
    "histoire",
    "actualit",
    "carte",
    "nosotros",
    "historia",
    "noticias",
    "carta",
    "meista",
    "uutiset",
    "ajankohtaista",
    "ruokalista",
    "tarina",
];

/// The facts of a site's pages (home page first), at most one per claim, in the order they are read. `today`
/// dates news; `business_name` tells the business from people named near it.
pub fn facts_of(pages: &[Page], business_name: &str, today: NaiveDate) -> Vec<Fact> {
    let mut facts: Vec<Fact> = Vec::new();
    for page in pages {
        for fact in rules::page_facts(page, business_name, today) {
            let duplicate = facts.iter().any(|known| {
                known.kind == fact.kind && known.claim.to_lowercase() == fact.claim.to_lowercase()
            });
            if !duplicate {
                facts.push(fact);
            }
        }
    }
    // The newest news first.
    let mut news: Vec<(Option<NaiveDate>, Fact)> = Vec::new();
    facts.retain(|fact| {
        if fact.kind == FactKind::News {
            news.push((news_date(pages, fact), fact.clone()));
            false
        } else {
            true
        }
    });
    news.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    facts.extend(news.into_iter().map(|(_, fact)| fact));
    facts
}

/// The facts of a site's pages: the rules' (see [`facts_of`]), then those the configured model points at that the
/// rules did not find. A model that fails adds nothing.
pub async fn read_facts(
    writer: &crate::writing::ai::writer::Writer,
    pages: &[Page],
    business_name: &str,
    today: NaiveDate,
) -> Vec<Fact> {
    let mut facts = facts_of(pages, business_name, today);
    match model::model_facts(writer, pages, business_name, today).await {
        Ok(found) => {
            for fact in found {
                let known = facts.iter().any(|known| {
                    known.quote == fact.quote
                        || (known.kind == fact.kind
                            && known.claim.to_lowercase() == fact.claim.to_lowercase())
                });
                if !known {
                    facts.push(fact);
                }
            }
        }
        Err(error) => {
            tracing::info!(error = %error, "the model read no facts: the rules' are used")
        }
    }
    facts
}

fn news_date(pages: &[Page], fact: &Fact) -> Option<NaiveDate> {
    pages
        .iter()
        .filter(|page| page.url == fact.url)
        .flat_map(|page| &page.blocks)
        .find(|block| block.text == fact.quote)
        .and_then(|block| block.date)
}

/// Whether a quote is in a page's visible text (whitespace runs compared as one space).
pub fn quote_on_page(quote: &str, visible_text: &str) -> bool {
    let quote = page::normalise(quote);
    !quote.is_empty() && page::normalise(visible_text).contains(&quote)
}

#[cfg(test)]
mod tests;
