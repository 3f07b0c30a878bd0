//! The words of a reply as the readers see them: folded to lowercase ASCII, cut above the quoted mail, split into
//! words, and matched against cue phrases on word boundaries.

use super::lexicon::{QUOTE_HEADERS, SIGNATURE_STARTS};

/// A reply folded for matching: lowercase, accents removed, ß as ss, one space between words.
pub fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for ch in text.chars().flat_map(char::to_lowercase) {
        let plain = match ch {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => "a",
            'ç' => "c",
            'è' | 'é' | 'ê' | 'ë' => "e",
            'ì' | 'í' | 'î' | 'ï' => "i",
            'ñ' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => "o",
            'ù' | 'ú' | 'û' | 'ü' => "u",
            'ý' | 'ÿ' => "y",
            'ß' => "ss",
            'œ' => "oe",
            'æ' => "ae",
            '’' | '‘' | '`' => "'",
            '¿' | '¡' => " ",
            _ => {
                folded.push(ch);
                continue;
            }
        };
        folded.push_str(plain);
    }
    folded
}

/// The prospect's own words: the reply above the quoted message it answers and above their signature (from its
/// delimiter or a mail app's tag line on).
pub fn own_text(body: &str) -> String {
    let mut kept = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('>') {
            continue;
        }
        let folded = fold(trimmed);
        if !kept.is_empty() && ends_the_reply(&folded) {
            break;
        }
        if QUOTE_HEADERS.iter().any(|header| {
            folded.starts_with(header) || (folded.ends_with(header) && folded.len() > header.len())
        }) {
            break;
        }
        kept.push(trimmed);
    }
    kept.join("\n")
}

/// A signature delimiter ("-- ", trimmed to "--"), a rule ("-----", "_____"), or a mail app's tag line ("Sent from
/// my iPhone"), of a trimmed and folded line.
fn ends_the_reply(folded: &str) -> bool {
    let rule = |mark: char| folded.len() >= 2 && folded.chars().all(|ch| ch == mark);
    rule('-')
        || rule('_')
        || SIGNATURE_STARTS
            .iter()
            .any(|start| folded.starts_with(start))
}

/// Words of folded text (letters, digits, and apostrophes inside words; a hyphen separates words, as in cues).
pub fn words(folded: &str) -> Vec<&str> {
    folded
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '\''))
        .map(|word| word.trim_matches('\''))
        .filter(|word| !word.is_empty())
        .collect()
}

/// Where a cue occurs in the words: (first word, last word + 1) of each match.
pub fn find(words: &[&str], cue: &str) -> Vec<(usize, usize)> {
    let parts: Vec<&str> = cue
        .split([' ', '-'])
        .filter(|part| !part.is_empty())
        .collect();
    let mut found = Vec::new();
    if parts.is_empty() || parts.len() > words.len() {
        return found;
    }
    'start: for start in 0..=words.len() - parts.len() {
        for (offset, part) in parts.iter().enumerate() {
            let word = words[start + offset];
            let matched = match part.strip_suffix('*') {
                Some(stem) => word.starts_with(stem),
                None => word == *part,
            };
            if !matched {
                continue 'start;
            }
        }
        found.push((start, start + parts.len()));
    }
    found
}

/// Every match of a list's cues.
pub fn matches(words: &[&str], cues: &[&str]) -> Vec<(usize, usize)> {
    cues.iter().flat_map(|cue| find(words, cue)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_own_text_ends_at_the_signature_and_the_quote() {
        let body = "Yes please, Thursday works.\n-- \nAda Baker\nWe will not be ignored\n";
        assert_eq!(own_text(body), "Yes please, Thursday works.");
        let body = "Gern, schicken Sie ein Angebot.\n\nGesendet von meinem iPhone\n\nAm Mo. schrieb Ben:\n> Hallo";
        assert_eq!(own_text(body), "Gern, schicken Sie ein Angebot.\n");
        let body = "Merci, on en parle lundi.\n________________________________\nDe : Léa\nNe répondez pas";
        assert_eq!(own_text(body), "Merci, on en parle lundi.");
        // A reply that opens with a dashed line keeps what follows it.
        assert_eq!(own_text("---\nNo thanks."), "---\nNo thanks.");
    }
}
