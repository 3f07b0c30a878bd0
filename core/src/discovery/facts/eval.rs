//! `outreach eval icebreakers DIR`: reads a folder of saved sites with the facts a careful reader would mention
//! (`core/data/icebreakers/README.md`), writes each site's facts and line as enrichment would, and scores them:
//! the precision of the line's claims (each supported by its quote, each quote on its page, each matching a
//! labelled fact, every number of the line in a quote), the coverage (sites with facts that got a line) and the
//! lines written for sites without facts.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use chrono::NaiveDate;
use serde::Deserialize;

use super::{Page, facts_of, quote_on_page};
use crate::writing::ai::writer::Writer;
use crate::writing::icebreaker::model::write_line;
use crate::writing::icebreaker::{Fact, FactKind};

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Spellings {
    One(String),
    Many(Vec<String>),
}

impl Spellings {
    fn all(&self) -> Vec<&str> {
        match self {
            Spellings::One(one) => vec![one.as_str()],
            Spellings::Many(many) => many.iter().map(String::as_str).collect(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Labelled {
    pub kind: FactKind,
    pub value: Spellings,
}

/// One saved site.
#[derive(Debug, Clone, Deserialize)]
pub struct Site {
    pub name: String,
    pub url: String,
    pub language: String,
    pub today: NaiveDate,
    /// Path → file.
    pub pages: std::collections::BTreeMap<String, String>,
    pub facts: Vec<Labelled>,
    #[serde(skip)]
    pub folder: PathBuf,
}

/// The figures of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scores {
    pub sites: usize,
    pub claims: usize,
    pub claims_right: usize,
    pub with_facts: usize,
    pub covered: usize,
    pub without_facts: usize,
    pub lines_without_facts: usize,
    pub facts: usize,
    pub facts_right: usize,
    pub labelled: usize,
    pub labelled_found: usize,
    /// What went wrong, one line each.
    pub errors: Vec<String>,
}

impl Scores {
    pub fn precision(&self) -> f64 {
        ratio(self.claims_right, self.claims)
    }
    pub fn coverage(&self) -> f64 {
        ratio(self.covered, self.with_facts)
    }

    /// The report; its last line holds the three figures.
    pub fn report(&self) -> String {
        format!(
            "facts: precision {:.3} ({}/{}), recall {:.3} ({}/{})\n\
             precision {:.3} ({}/{} claims) · coverage {:.3} ({}/{} sites with facts) · lines for sites without facts {} (of {})",
            ratio(self.facts_right, self.facts),
            self.facts_right,
            self.facts,
            ratio(self.labelled_found, self.labelled),
            self.labelled_found,
            self.labelled,
            self.precision(),
            self.claims_right,
            self.claims,
            self.coverage(),
            self.covered,
            self.with_facts,
            self.lines_without_facts,
            self.without_facts,
        )
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// Every site under `dir` (each a folder with `site.json`), by folder name.
pub fn read_sites(dir: &Path) -> anyhow::Result<Vec<Site>> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.join("site.json").is_file())
        .collect();
    folders.sort();
    folders
        .into_iter()
        .map(|folder| {
            let file = folder.join("site.json");
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let mut site: Site = serde_json::from_str(&text)
                .with_context(|| format!("reading {}", file.display()))?;
            site.folder = folder;
            Ok(site)
        })
        .collect()
}

impl Site {
    /// Its pages as (URL, HTML), the home page first.
    pub fn html(&self) -> anyhow::Result<Vec<(String, String)>> {
        let base = url::Url::parse(&self.url)?;
        let mut paths: Vec<&String> = self.pages.keys().collect();
        paths.sort_by_key(|path| (path.as_str() != "/", path.to_string()));
        paths
            .into_iter()
            .map(|path| {
                let file = self.folder.join(&self.pages[path]);
                let html = std::fs::read_to_string(&file)
                    .with_context(|| format!("reading {}", file.display()))?;
                Ok((base.join(path)?.to_string(), html))
            })
            .collect()
    }

    fn matches(&self, fact: &Fact) -> bool {
        let norm = |text: &str| {
            text.to_lowercase()
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_string()
        };
        let claim = norm(&fact.claim);
        self.facts
            .iter()
            .filter(|label| label.kind == fact.kind)
            .any(|label| {
                label.value.all().iter().any(|spelling| {
                    let spelling = norm(spelling);
                    claim == spelling
                        || claim.contains(&spelling)
                        || (spelling.contains(&claim) && claim.len() * 10 >= spelling.len() * 6)
                })
            })
    }
}

/// A page's text read independently of the fact reader: tags, scripts, styles and comments removed, entities
/// decoded, whitespace runs as one space.
pub fn plain_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        let tag = &rest[open..];
        let lower: String = tag.chars().take(10).collect::<String>().to_lowercase();
        let skip_to = if lower.starts_with("<!--") {
            tag.find("-->").map(|end| end + 3)
        } else if lower.starts_with("<script") || lower.starts_with("<style") {
            let close = if lower.starts_with("<script") {
                "</script"
            } else {
                "</style"
            };
            tag.to_lowercase()
                .find(close)
                .and_then(|end| tag[end..].find('>').map(|gt| end + gt + 1))
        } else {
            tag.find('>').map(|end| end + 1)
        };
        let Some(skip) = skip_to else {
            break;
        };
        let inline = [
            "<a", "</a", "<b>", "</b", "<strong", "</strong", "<em", "</em", "<span", "</span",
            "<i>", "</i",
        ]
        .iter()
        .any(|name| lower.starts_with(name));
        if !inline {
            text.push(' ');
        }
        rest = &tag[skip..];
    }
    text.push_str(rest);
    super::page::normalise(&html_escape::decode_html_entities(&text))
}

/// Reads every site, writes its facts and line with `writer`, and scores them.
pub async fn evaluate(sites: &[Site], writer: &Writer) -> anyhow::Result<Scores> {
    let mut scores = Scores::default();
    for site in sites {
        scores.sites += 1;
        let html = site.html()?;
        let pages: Vec<Page> = html
            .iter()
            .map(|(url, html)| Page::parse(html, url))
            .collect();
        let facts = facts_of(&pages, &site.name, site.today);
        let line = write_line(writer, &facts, &site.language, &site.name, site.today).await;
        let name = site
            .folder
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let on_page = |fact: &Fact| {
            html.iter()
                .find(|(url, _)| *url == fact.url)
                .is_some_and(|(_, html)| quote_on_page(&fact.quote, &plain_text(html)))
        };
        let supported =
            |fact: &Fact| fact.quote.contains(&fact.claim) && on_page(fact) && site.matches(fact);
        for fact in &facts {
            scores.facts += 1;
            if supported(fact) {
                scores.facts_right += 1;
            } else {
                scores.errors.push(format!(
                    "{name}: wrong fact {:?} “{}” from “{}”",
                    fact.kind, fact.claim, fact.quote
                ));
            }
        }
        for label in &site.facts {
            scores.labelled += 1;
            let found = facts.iter().any(|fact| {
                fact.kind == label.kind
                    && Site {
                        facts: vec![label.clone()],
                        ..site.clone()
                    }
                    .matches(fact)
            });
            if found {
                scores.labelled_found += 1;
            } else {
                scores.errors.push(format!(
                    "{name}: missed {:?} {:?}",
                    label.kind,
                    label.value.all()
                ));
            }
        }
        if site.facts.is_empty() {
            scores.without_facts += 1;
            if let Some(line) = &line {
                scores.lines_without_facts += 1;
                scores.errors.push(format!(
                    "{name}: a line for a site without facts: {}",
                    line.text
                ));
            }
        } else {
            scores.with_facts += 1;
            if line.is_some() {
                scores.covered += 1;
            } else {
                scores.errors.push(format!("{name}: no line"));
            }
        }
        if let Some(line) = &line {
            let quotes: String = line
                .sources
                .iter()
                .map(|fact| fact.quote.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            let numbers_ok = numbers(&line.text)
                .iter()
                .all(|number| numbers(&quotes).contains(number));
            for fact in &line.sources {
                scores.claims += 1;
                if numbers_ok && supported(fact) {
                    scores.claims_right += 1;
                } else {
                    scores.errors.push(format!(
                        "{name}: unsupported claim “{}” in “{}”",
                        fact.claim, line.text
                    ));
                }
            }
        }
    }
    Ok(scores)
}

fn numbers(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_development_set_scores_as_the_readme_says() {
        // The held-out set is scored with `outreach eval icebreakers core/data/icebreakers/test`, not here.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/icebreakers");
        for set in ["dev"] {
            let sites = read_sites(&root.join(set)).unwrap();
            let scores = evaluate(&sites, &Writer::Offline).await.unwrap();
            assert_eq!(scores.precision(), 1.0, "{set}: {:#?}", scores.errors);
            assert_eq!(scores.lines_without_facts, 0, "{set}: {:#?}", scores.errors);
            assert!(
                scores.coverage() >= 0.9,
                "{set}: {}\n{:#?}",
                scores.report(),
                scores.errors
            );
        }
    }

    #[test]
    fn plain_text_is_what_a_visitor_reads() {
        assert_eq!(
            plain_text(
                "<p>Founded by <b>Maria</b>&nbsp;Lindqvist.</p><script>x</script><!-- y --><p>Z</p>"
            ),
            "Founded by Maria Lindqvist. Z"
        );
    }
}
