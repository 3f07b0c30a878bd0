//! The built-in spam checks, for a server without SpamAssassin: spam phrases in the five languages the product
//! reads, images and links against the text, an ALL CAPS or `RE:`-faked subject, link shorteners, a missing text
//! part, and links to domains other than the sender's. Points are in SpamAssassin's scale, so the same threshold
//! (5) applies.

use super::report::{ENGINE_BUILTIN, SpamCheck, SpamRule};
use crate::sending::compose::Composed;

/// Phrases spam filters weigh, lowercase, in English, German, French, Spanish and Finnish.
const SPAM_PHRASES: &[&str] = &[
    "free",
    "100% free",
    "click here",
    "act now",
    "limited time",
    "buy now",
    "order now",
    "guaranteed",
    "risk-free",
    "risk free",
    "no obligation",
    "winner",
    "earn money",
    "make money",
    "cash bonus",
    "urgent",
    "special promotion",
    "once in a lifetime",
    "100% satisfied",
    "no cost",
    "kostenlos",
    "gratis",
    "hier klicken",
    "jetzt kaufen",
    "jetzt bestellen",
    "garantiert",
    "gewinner",
    "nur heute",
    "sofort geld",
    "gratuit",
    "cliquez ici",
    "offre limitée",
    "achetez maintenant",
    "garanti",
    "gagnant",
    "sans engagement",
    "urgent",
    "haga clic aquí",
    "haz clic aquí",
    "oferta limitada",
    "compre ahora",
    "garantizado",
    "ganador",
    "urgente",
    "sin compromiso",
    "ilmainen",
    "ilmaiseksi",
    "klikkaa tästä",
    "osta nyt",
    "tilaa heti",
    "rajoitettu tarjous",
    "voittaja",
    "takuuvarma",
];

/// Link shorteners: a link through one hides where it goes.
const SHORTENERS: &[&str] = &[
    "bit.ly",
    "tinyurl.com",
    "goo.gl",
    "t.co",
    "ow.ly",
    "is.gd",
    "buff.ly",
    "rebrand.ly",
    "cutt.ly",
    "shorturl.at",
    "tiny.cc",
    "t.ly",
    "rb.gy",
    "bl.ink",
    "s.id",
];

/// Prefixes of a reply or forward, in the five languages' mail programs.
const REPLY_PREFIXES: &[&str] = &[
    "re:", "fw:", "fwd:", "aw:", "wg:", "tr:", "rv:", "vs:", "vl:", "sv:",
];

/// Scores a composed first message with the built-in checks.
pub fn builtin_check(composed: &Composed) -> SpamCheck {
    let mut rules = Vec::new();
    let mut fire = |name: &str, points: f64, description: String| {
        rules.push(SpamRule {
            name: name.into(),
            points,
            description,
        })
    };
    let subject = composed.subject.trim();
    let text = crate::sending::compose::html_to_text(&composed.body);
    let lower = format!("{}\n{}", subject, text).to_lowercase();
    let phrases: Vec<&str> = SPAM_PHRASES
        .iter()
        .copied()
        .filter(|phrase| has_phrase(&lower, phrase))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !phrases.is_empty() {
        fire(
            "BUILTIN_SPAM_PHRASES",
            (0.6 * phrases.len() as f64).min(3.0),
            format!("Phrases spam filters weigh: {}", phrases.join(", ")),
        );
    }
    if subject.contains("!!") || text.contains("!!!") {
        fire(
            "BUILTIN_EXCLAMATIONS",
            1.0,
            "Several exclamation marks in a row".into(),
        );
    }
    let letters: Vec<char> = subject.chars().filter(|c| c.is_alphabetic()).collect();
    let upper = letters.iter().filter(|c| c.is_uppercase()).count();
    if letters.len() >= 6 && upper * 10 >= letters.len() * 8 {
        fire(
            "BUILTIN_SUBJECT_ALL_CAPS",
            1.5,
            "The subject is in capitals".into(),
        );
    }
    let lower_subject = subject.to_lowercase();
    if REPLY_PREFIXES
        .iter()
        .any(|prefix| lower_subject.starts_with(prefix))
    {
        fire(
            "BUILTIN_FAKE_REPLY",
            1.5,
            "A first email whose subject pretends to be a reply or a forward".into(),
        );
    }
    let links = links_of(composed);
    let shortened: Vec<String> = links
        .iter()
        .filter_map(|link| host(link))
        .filter(|host| {
            SHORTENERS
                .iter()
                .any(|short| host == short || host.ends_with(&format!(".{short}")))
        })
        .collect();
    if let Some(first) = shortened.first() {
        fire(
            "BUILTIN_SHORTENER",
            2.0,
            format!("A link through a link shortener ({first})"),
        );
    }
    let words = text.split_whitespace().count();
    let images = count_images(&composed.body) + count_images(&composed.html);
    if images > 0 && words < 120 * images {
        fire(
            "BUILTIN_IMAGE_TEXT_RATIO",
            if words < 40 { 2.0 } else { 1.2 },
            format!("{images} image(s) and only {words} words of text"),
        );
    }
    if !links.is_empty() && words < 25 * links.len() {
        fire(
            "BUILTIN_LINK_TEXT_RATIO",
            0.8,
            format!("{} link(s) in {words} words of text", links.len()),
        );
    }
    if !composed.html.is_empty() && composed.text.trim().is_empty() {
        fire(
            "BUILTIN_NO_TEXT_PART",
            1.5,
            "HTML without a plain-text part".into(),
        );
    }
    let from_domain = composed
        .from_email
        .rsplit_once('@')
        .map(|(_, domain)| base_domain(domain.to_lowercase()))
        .unwrap_or_default();
    let foreign: Vec<String> = links
        .iter()
        .filter_map(|link| host(link))
        .map(base_domain)
        .filter(|domain| *domain != from_domain)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !foreign.is_empty() {
        fire(
            "BUILTIN_FROM_LINK_DOMAINS",
            0.5,
            format!(
                "Links to domains other than the sender's ({})",
                foreign.join(", ")
            ),
        );
    }
    let score = (rules.iter().map(|rule| rule.points).sum::<f64>() * 10.0).round() / 10.0;
    SpamCheck {
        engine: ENGINE_BUILTIN.into(),
        score,
        rules,
    }
}

/// Whether the phrase is in the text on word boundaries.
fn has_phrase(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The web links the user wrote: the body's `href`s and the addresses in its text.
fn links_of(composed: &Composed) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = composed.body.as_str();
    while let Some(at) = rest.find("href=\"") {
        rest = &rest[at + 6..];
        let end = rest.find('"').unwrap_or(rest.len());
        let link = &rest[..end];
        if link.starts_with("http://") || link.starts_with("https://") {
            links.push(link.to_string());
        }
    }
    let text = crate::sending::compose::html_to_text(&composed.body);
    for word in text.split_whitespace() {
        let word = word
            .trim_start_matches('(')
            .trim_end_matches(['.', ',', ')', ';', '!', '?']);
        if (word.starts_with("http://") || word.starts_with("https://"))
            && !links.iter().any(|l| l == word)
        {
            links.push(word.to_string());
        }
    }
    links
}

/// A link's host, lowercase.
fn host(link: &str) -> Option<String> {
    url::Url::parse(link)
        .ok()?
        .host_str()
        .map(|host| host.trim_start_matches("www.").to_lowercase())
}

/// The last two labels of a host (`mail.bakery.example` → `bakery.example`).
fn base_domain(host: impl AsRef<str>) -> String {
    let labels: Vec<&str> = host.as_ref().split('.').collect();
    labels[labels.len().saturating_sub(2)..].join(".")
}

fn count_images(html: &str) -> usize {
    html.to_ascii_lowercase().matches("<img").count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn composed(subject: &str, body: &str) -> Composed {
        Composed {
            from_email: "ada@bakery.example".into(),
            to_email: "owner@cafe.example".into(),
            subject: subject.into(),
            body: body.into(),
            text: crate::sending::compose::html_to_text(body),
            ..Composed::default()
        }
    }

    #[test]
    fn a_plain_short_note_passes_and_a_spammy_one_is_flagged() {
        let clean = builtin_check(&composed(
            "Bread for Café Ursula",
            "<p>Hi, I bake sourdough in Helsinki and wondered whether your café would like a weekly delivery. \
             Would a sample box next Tuesday suit you? I can bring it by in the morning before you open.</p>\
             <p>Ada</p>",
        ));
        assert_eq!(clean.engine, "builtin");
        assert_eq!(clean.score, 0.0, "{clean:?}");

        let spammy = builtin_check(&composed(
            "FREE!!! CLICK HERE NOW",
            "<p><a href=\"https://bit.ly/3xYz\"><img src=\"https://img.example/big.jpg\"></a></p><p>FREE!!! Click here</p>",
        ));
        let names: Vec<&str> = spammy.rules.iter().map(|rule| rule.name.as_str()).collect();
        for expected in [
            "BUILTIN_SPAM_PHRASES",
            "BUILTIN_EXCLAMATIONS",
            "BUILTIN_SUBJECT_ALL_CAPS",
            "BUILTIN_SHORTENER",
            "BUILTIN_IMAGE_TEXT_RATIO",
            "BUILTIN_FROM_LINK_DOMAINS",
        ] {
            assert!(names.contains(&expected), "{expected} in {names:?}");
        }
        assert!(spammy.score >= 5.0, "{spammy:?}");
    }

    #[test]
    fn phrases_in_each_language_fake_replies_and_missing_text_parts_count() {
        for (subject, body) in [
            ("Hallo", "<p>Kostenlos für Sie, hier klicken</p>"),
            ("Bonjour", "<p>Cliquez ici, c'est gratuit</p>"),
            ("Hola", "<p>Haz clic aquí, oferta limitada</p>"),
            ("Hei", "<p>Ilmainen kokeilu, klikkaa tästä</p>"),
        ] {
            let check = builtin_check(&composed(subject, body));
            assert_eq!(check.rules[0].name, "BUILTIN_SPAM_PHRASES", "{body}");
        }
        // Words that only contain a phrase do not count.
        assert!(
            builtin_check(&composed("Hello", "<p>Freedom and freestyle</p>"))
                .rules
                .is_empty()
        );
        let reply = builtin_check(&composed("RE: our call", "<p>As promised, the menu.</p>"));
        assert_eq!(reply.rules[0].name, "BUILTIN_FAKE_REPLY");
        let mut html_only = composed("Menu", "<p>x</p>");
        html_only.html = "<p>x</p>".into();
        html_only.text = String::new();
        assert!(
            builtin_check(&html_only)
                .rules
                .iter()
                .any(|rule| rule.name == "BUILTIN_NO_TEXT_PART")
        );
    }
}
