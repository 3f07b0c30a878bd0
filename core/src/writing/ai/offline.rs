//! The offline writer: a deterministic draft from the brief alone, used when no AI model is configured. It uses
//! every field of the form, varies with objective and tone, and states nothing the brief does not say. Its copy
//! follows a few rules: a short subject made of whole words (never a field cut off with '…'), fields written into
//! a sentence in sentence case ('we offer weekly deliveries', not 'we offer Weekly deliveries'), sentences that
//! end properly, and one call to action (the ask, as the question it is or wrapped in one). An adjustment it cannot
//! apply is named in its notes.

use super::{Brief, Draft, Material, Written};

/// Adjustments the offline writer understands, by keyword.
const SHORTER: &[&str] = &["shorter", "short", "brief", "concise"];
const NO_LINK: &[&str] = &[
    "no link",
    "without link",
    "remove link",
    "without the link",
    "remove the link",
];
const TONE_WORDS: &[(&str, &str)] = &[
    ("formal", "professional"),
    ("friendl", "friendly"),
    ("warm", "friendly"),
    ("casual", "casual"),
    ("relaxed", "casual"),
];
const UNDERSTOOD: &str = "the offline writer understands shorter, no link, formal, friendly and casual; connect an AI model for other changes";

/// Subjects stay short enough for a phone's inbox.
const SUBJECT_CHARS: usize = 60;
/// A subject's topic is at most this many words of the service description.
const TOPIC_WORDS: usize = 6;
/// Words a shortened topic never ends on.
const DANGLING: &[&str] = &[
    "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "our", "the", "to",
    "with", "your",
];
/// An ask starting with one of these is already a question.
const QUESTION_WORDS: &[&str] = &[
    "can", "could", "would", "will", "shall", "may", "do", "does", "are", "is", "how", "what",
    "when", "where", "why", "which", "who", "should",
];
/// An ask starting with one of these is already a request ('Reply to book a tasting').
const IMPERATIVES: &[&str] = &[
    "book", "call", "reply", "let", "visit", "try", "schedule", "join", "get", "see", "send",
    "email", "contact", "order", "sign", "write", "drop", "pick", "choose", "tell", "come",
];

/// What the adjustments ask for, and what of them the offline writer cannot do.
struct Adjustments<'a> {
    tone: Option<&'static str>,
    shorter: bool,
    without_link: bool,
    not_applied: Vec<&'a str>,
}

/// Reads each part of the adjustments ('shorter, and mention oat milk' is two parts) on its own.
fn read_adjustments(text: &str) -> Adjustments<'_> {
    let mut adjustments = Adjustments {
        tone: None,
        shorter: false,
        without_link: false,
        not_applied: Vec::new(),
    };
    let parts = text
        .split([',', ';', '\n'])
        .flat_map(|part| part.split(" and "))
        .map(|part| part.trim().trim_start_matches("and ").trim())
        .filter(|part| !part.is_empty());
    for part in parts {
        let lower = part.to_lowercase();
        let mut understood = false;
        if let Some((_, tone)) = TONE_WORDS
            .iter()
            .find(|(keyword, _)| lower.contains(keyword))
        {
            adjustments.tone.get_or_insert(tone);
            understood = true;
        }
        if NO_LINK.iter().any(|phrase| lower.contains(phrase)) {
            adjustments.without_link = true;
            understood = true;
        } else if SHORTER.iter().any(|word| lower.contains(word)) {
            adjustments.shorter = true;
            understood = true;
        }
        if !understood {
            adjustments.not_applied.push(part);
        }
    }
    adjustments
}

pub fn write(brief: &Brief, material: &Material) -> Written {
    let adjustments = read_adjustments(&brief.adjustments);
    let mut notes = Vec::new();
    if let Some(tone) = adjustments.tone {
        notes.push(format!("tone set to {tone}"));
    }
    if adjustments.shorter {
        notes.push("made shorter".to_string());
    }
    if adjustments.without_link {
        notes.push("link removed".to_string());
    }
    if !adjustments.not_applied.is_empty() {
        notes.push(format!(
            "not applied: {} ({UNDERSTOOD})",
            adjustments.not_applied.join("; ")
        ));
    }
    let tone = adjustments.tone.unwrap_or(brief.tone.as_str());

    let name = material
        .business
        .as_ref()
        .map(|business| business.name.clone());
    let recipient = name
        .clone()
        .unwrap_or_else(|| "{{businessName | there}}".to_string());
    let service = mid_sentence(&sentence_part(&brief.service_description));
    let value = mid_sentence(&sentence_part(&brief.value_proposition));

    let greeting = match tone {
        "friendly" => format!("Hi {recipient},"),
        "casual" => format!("Hey {recipient},"),
        _ => format!("Hello {recipient},"),
    };
    let opening = match brief.objective.as_str() {
        // A second A/B variant opens with a question instead.
        _ if brief.second_variant => format!("Quick question: could {service} help you?"),
        "Marketing Pitch" => format!("I would like to introduce {service}."),
        "Partnership Proposal" => format!("I am writing to propose a partnership: {service}."),
        "Lead Generation" => format!("I am reaching out because we offer {service}."),
        _ => format!("{}.", capitalise(&service)),
    };
    let benefit = match tone {
        "friendly" => format!("Here is why it could help you: {value}."),
        "casual" => format!("In short: {value}."),
        _ => format!("What it means for you: {value}."),
    };
    let closing = match tone {
        "friendly" => "Best wishes,",
        "casual" => "Cheers,",
        _ => "Kind regards,",
    };

    let mut paragraphs = vec![escape(&greeting), escape(&opening), escape(&benefit)];
    let facts = education_sentences(brief, material);
    if !adjustments.shorter && !facts.is_empty() {
        paragraphs.push(format!("A little about us: {}", escape(&facts.join(" "))));
    }
    paragraphs.push(escape(&call_to_action(&brief.your_ask, tone)));
    let url = brief.promotional_url.trim();
    if !url.is_empty() && !adjustments.without_link {
        paragraphs.push(format!(
            "You can see more here: <a href=\"{0}\">{0}</a>",
            escape(url)
        ));
    }
    let signature = brief
        .email_signature
        .trim()
        .lines()
        .map(escape)
        .collect::<Vec<_>>()
        .join("<br>");
    paragraphs.push(format!("{closing}<br>{signature}"));
    let body = paragraphs
        .iter()
        .map(|paragraph| format!("<p>{paragraph}</p>"))
        .collect::<String>();

    let subject = if brief.second_variant {
        question_subject(&brief.service_description)
    } else {
        subject(
            &brief.objective,
            tone,
            &brief.service_description,
            name.as_deref(),
        )
    };
    Written {
        draft: Draft { subject, body },
        notes,
    }
}

/// A second variant's subject: a question about the service, of whole words.
fn question_subject(service: &str) -> String {
    let mut words = topic_words(service);
    loop {
        let subject = format!("Quick question about {}", mid_sentence(&words.join(" ")));
        if subject.chars().count() <= SUBJECT_CHARS || words.len() <= 1 {
            return subject;
        }
        words.pop();
    }
}

/// A short subject of whole words: the service, shortened at a clause boundary, in a frame by objective and tone.
fn subject(objective: &str, tone: &str, service: &str, name: Option<&str>) -> String {
    let frame = |topic: &str| match objective {
        "Marketing Pitch" => format!("Introducing {topic}"),
        "Partnership Proposal" => format!("A partnership idea: {topic}"),
        _ => match tone {
            "friendly" => format!("An idea for {}: {topic}", name.unwrap_or("you")),
            "casual" => format!("{}?", capitalise(topic)),
            _ => capitalise(topic),
        },
    };
    let mut words = topic_words(service);
    loop {
        let subject = frame(&mid_sentence(&words.join(" ")));
        if subject.chars().count() <= SUBJECT_CHARS || words.len() <= 1 {
            return subject;
        }
        words.pop();
        while words.len() > 1
            && words
                .last()
                .is_some_and(|word| DANGLING.contains(&word.to_lowercase().as_str()))
        {
            words.pop();
        }
    }
}

/// The service's first clause, at most `TOPIC_WORDS` words, never ending on a word like 'and' or 'for'.
fn topic_words(service: &str) -> Vec<&str> {
    let text = sentence_part(service);
    let clause_end = [
        ",",
        ";",
        ":",
        " - ",
        " – ",
        "(",
        " that ",
        " which ",
        " so ",
        " because ",
    ]
    .iter()
    .filter_map(|mark| text.find(mark))
    .min()
    .unwrap_or(text.len());
    let start = service.find(text.as_str()).unwrap_or(0);
    let clause = &service[start..start + clause_end];
    let mut words: Vec<&str> = clause.split_whitespace().take(TOPIC_WORDS).collect();
    while words.len() > 1
        && words
            .last()
            .is_some_and(|word| DANGLING.contains(&word.to_lowercase().as_str()))
    {
        words.pop();
    }
    words
}

/// The one call to action: the ask as the question it is, the request it is, or wrapped in a question.
fn call_to_action(ask: &str, tone: &str) -> String {
    let ask = ask.trim();
    let first = ask
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    if ask.ends_with('?') {
        capitalise(ask)
    } else if QUESTION_WORDS.contains(&first.as_str()) {
        format!("{}?", capitalise(ask.trim_end_matches(['.', '!'])))
    } else if ask.ends_with(['.', '!']) || IMPERATIVES.contains(&first.as_str()) {
        ending(&capitalise(ask))
    } else {
        let phrase = mid_sentence(&sentence_part(ask));
        match tone {
            "friendly" => format!("Would you be up for {phrase}?"),
            "casual" => format!("How about {phrase}?"),
            _ => format!("Would you be open to {phrase}?"),
        }
    }
}

/// A field written into the middle of a sentence: a sentence-case first word ('Weekly deliveries') loses its
/// capital; names ('Nordic Bakery'), acronyms ('SEO audits') and words like 'iPhone' keep theirs.
fn mid_sentence(text: &str) -> String {
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return String::new();
    };
    let mut letters = first.chars();
    let initial_capital = letters.next().is_some_and(char::is_uppercase);
    let rest_lower = letters.all(|letter| !letter.is_uppercase());
    let second_is_name = words
        .next()
        .and_then(|word| word.chars().next())
        .is_some_and(char::is_uppercase);
    if initial_capital && rest_lower && !second_is_name && first != "I" {
        let mut chars = text.chars();
        chars
            .next()
            .map(|letter| letter.to_lowercase().chain(chars).collect())
            .unwrap_or_default()
    } else {
        text.to_string()
    }
}

/// The first sentence of the sender's notes and of their first education file: facts the sender supplied.
fn education_sentences(brief: &Brief, material: &Material) -> Vec<String> {
    let notes = brief.ai_education_text.trim();
    let file = material
        .education
        .iter()
        .map(|(_, text)| text.trim())
        .find(|text| !text.is_empty() && *text != notes);
    let mut sentences: Vec<String> = [Some(notes), file]
        .into_iter()
        .flatten()
        .filter(|text| !text.is_empty())
        .map(first_sentence)
        .collect();
    sentences.dedup();
    sentences
}

/// The first sentence, ending with its full stop (one is added where the text had none).
fn first_sentence(text: &str) -> String {
    let end = text
        .find(['.', '!', '?', '\n'])
        .map_or(text.len(), |index| index + 1);
    ending(&capitalise(&truncate_words(text[..end].trim(), 200)))
}

/// A field as part of a sentence: trimmed, without its final full stop, first letter kept as typed.
fn sentence_part(text: &str) -> String {
    text.trim().trim_end_matches(['.', '!']).trim().to_string()
}

fn ending(text: &str) -> String {
    let text = text.trim();
    if text.ends_with(['.', '!', '?']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn truncate_words(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let cut: String = text.chars().take(limit).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', ';', ':']))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaigns::personalise::html_text;
    use crate::campaigns::templates::{OBJECTIVES, TONES, check_variables};

    fn brief(objective: &str, tone: &str) -> Brief {
        Brief {
            template_name: "Intro".into(),
            objective: objective.into(),
            service_description: "fresh sourdough delivered every morning".into(),
            value_proposition: "your café never runs out of bread".into(),
            your_ask: "Can I bring you a free sample on Tuesday".into(),
            promotional_url: "https://bakery.example/menu".into(),
            tone: tone.into(),
            email_signature: "Ada Baker\nNordic Bakery".into(),
            ai_education_text:
                "Nordic Bakery has baked in Helsinki since 1989. We use organic flour.".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_second_variant_has_another_subject_and_first_line_and_the_same_ask() {
        let first = write(
            &brief("Partnership Proposal", "friendly"),
            &Material::default(),
        )
        .draft;
        let second = write(
            &Brief {
                second_variant: true,
                previous: Some(first.clone()),
                ..brief("Partnership Proposal", "friendly")
            },
            &Material::default(),
        )
        .draft;
        assert_ne!(first.subject, second.subject);
        assert!(
            second.subject.starts_with("Quick question about"),
            "{}",
            second.subject
        );
        assert!(second.subject.chars().count() <= SUBJECT_CHARS);
        assert!(
            second
                .body
                .contains("Quick question: could fresh sourdough"),
            "{}",
            second.body
        );
        assert!(second.body.contains("free sample on Tuesday"));
        assert!(check_variables(&second.subject).is_ok() && check_variables(&second.body).is_ok());
    }

    #[test]
    fn every_field_is_used_and_nothing_else_is_claimed() {
        for objective in OBJECTIVES {
            for tone in TONES {
                let written = write(&brief(objective, tone), &Material::default());
                let text = html_text(&written.draft.body).to_lowercase();
                for field in [
                    "fresh sourdough delivered every morning",
                    "your café never runs out of bread",
                    "Can I bring you a free sample on Tuesday",
                    "https://bakery.example/menu",
                    "Ada Baker",
                    "Nordic Bakery",
                    "since 1989",
                ] {
                    assert!(
                        text.contains(&field.to_lowercase()),
                        "{objective}/{tone} lacks {field}: {text}"
                    );
                }
                assert!(
                    text.contains("{{businessname | there}}"),
                    "personal greeting"
                );
                assert_eq!(check_variables(&written.draft.body), Ok(()));
                assert!(
                    !written.draft.subject.is_empty()
                        && written.draft.subject.chars().count() <= SUBJECT_CHARS
                        && !written.draft.subject.contains('…')
                );
                assert!(written.notes.is_empty());
            }
        }
    }

    #[test]
    fn objective_and_tone_change_the_draft_and_the_same_brief_gives_the_same_draft() {
        let drafts: std::collections::HashSet<(String, String)> = OBJECTIVES
            .iter()
            .flat_map(|objective| {
                TONES
                    .iter()
                    .map(move |tone| write(&brief(objective, tone), &Material::default()).draft)
            })
            .map(|draft| (draft.subject, draft.body))
            .collect();
        assert_eq!(drafts.len(), OBJECTIVES.len() * TONES.len());
        assert_eq!(
            write(&brief("Custom", "casual"), &Material::default()),
            write(&brief("Custom", "casual"), &Material::default())
        );
        let pitch = write(
            &brief("Marketing Pitch", "professional"),
            &Material::default(),
        )
        .draft;
        assert_eq!(
            pitch.subject,
            "Introducing fresh sourdough delivered every morning"
        );
        assert!(
            pitch
                .body
                .starts_with("<p>Hello {{businessName | there}},</p><p>I would like to introduce")
        );
    }

    #[test]
    fn known_adjustments_apply_and_others_are_reported() {
        let mut adjusted = brief("Lead Generation", "professional");
        adjusted.adjustments = "Make it shorter, casual and without the link".into();
        let written = write(&adjusted, &Material::default());
        assert_eq!(
            written.notes,
            vec!["tone set to casual", "made shorter", "link removed"]
        );
        let text = html_text(&written.draft.body);
        assert!(
            text.starts_with("Hey") && !text.contains("bakery.example") && !text.contains("1989")
        );
        adjusted.adjustments = "mention our vegan range".into();
        assert_eq!(
            write(&adjusted, &Material::default()).notes,
            vec![format!(
                "not applied: mention our vegan range ({UNDERSTOOD})"
            )]
        );
        // A combined request is applied as far as it can be, and the rest is named (it was half applied silently).
        adjusted.adjustments = "shorter, and mention oat milk".into();
        assert_eq!(
            write(&adjusted, &Material::default()).notes,
            vec![
                "made shorter".to_string(),
                format!("not applied: mention oat milk ({UNDERSTOOD})")
            ]
        );
    }

    #[test]
    fn subjects_are_short_whole_words_whatever_the_fields() {
        let mut long = brief("Lead Generation", "professional");
        long.service_description = "Weekly deliveries of organic sourdough, rye and pastries for cafés and restaurants in the \
                                    whole Helsinki region, with a free first week"
            .into();
        long.value_proposition = "your café never runs out of bread, your staff stop baking at dawn, and your customers \
                                  get the freshest loaves in town every single morning"
            .into();
        for objective in OBJECTIVES {
            for tone in TONES {
                let mut brief = long.clone();
                brief.objective = objective.to_string();
                brief.tone = tone.to_string();
                let subject = write(&brief, &Material::default()).draft.subject;
                assert!(
                    subject.chars().count() <= SUBJECT_CHARS,
                    "{objective}/{tone}: {subject}"
                );
                assert!(
                    !subject.contains('…')
                        && !subject.ends_with(" for")
                        && !subject.ends_with(" and"),
                    "{subject}"
                );
                assert!(subject.chars().next().unwrap().is_uppercase(), "{subject}");
            }
        }
        assert_eq!(
            write(&long, &Material::default()).draft.subject,
            "Weekly deliveries of organic sourdough"
        );
    }

    #[test]
    fn fields_read_as_part_of_the_sentence_and_every_sentence_ends() {
        let mut typed = brief("Lead Generation", "professional");
        typed.service_description = "Weekly sourdough deliveries".into();
        typed.value_proposition = "Fresh bread without the early mornings.".into();
        let text = html_text(&write(&typed, &Material::default()).draft.body);
        assert!(
            text.contains("we offer weekly sourdough deliveries."),
            "{text}"
        );
        assert!(
            text.contains("What it means for you: fresh bread without the early mornings."),
            "{text}"
        );
        // Names and acronyms keep their capitals.
        assert_eq!(
            mid_sentence("Nordic Bakery's loaves"),
            "Nordic Bakery's loaves"
        );
        assert_eq!(mid_sentence("SEO audits"), "SEO audits");
        assert_eq!(mid_sentence("iPhone repairs"), "iPhone repairs");
        assert_eq!(mid_sentence("Weekly deliveries"), "weekly deliveries");
    }

    #[test]
    fn there_is_one_call_to_action() {
        for tone in TONES {
            for (ask, expected) in [
                (
                    "Can I bring you a free sample on Tuesday",
                    "Can I bring you a free sample on Tuesday?",
                ),
                ("Shall we talk this week?", "Shall we talk this week?"),
                ("Reply to book a tasting", "Reply to book a tasting."),
            ] {
                let mut asked = brief("Lead Generation", tone);
                asked.your_ask = ask.into();
                let text = html_text(&write(&asked, &Material::default()).draft.body);
                assert!(text.contains(expected), "{tone}: {text}");
                // The ask was doubled with a question of the writer's own ('Would you be open to it? Can I...?').
                assert!(text.matches('?').count() <= 1, "{tone}: {text}");
            }
        }
        let mut phrase = brief("Lead Generation", "professional");
        phrase.your_ask = "a free tasting on Tuesday".into();
        let text = html_text(&write(&phrase, &Material::default()).draft.body);
        assert!(
            text.contains("Would you be open to a free tasting on Tuesday?"),
            "{text}"
        );
        assert_eq!(text.matches('?').count(), 1);
    }

    #[test]
    fn notes_and_the_first_file_each_give_a_sentence() {
        let material = Material {
            education: vec![(
                "about.pdf".into(),
                "Baked in Helsinki since 1989. More text.".into(),
            )],
            business: None,
        };
        let body = write(&brief("Custom", "professional"), &material)
            .draft
            .body;
        assert!(body.contains("A little about us: Nordic Bakery has baked in Helsinki since 1989. Baked in Helsinki since 1989."), "{body}");
    }

    #[test]
    fn html_in_fields_is_escaped() {
        let mut hostile = brief("Custom", "friendly");
        hostile.value_proposition = "<script>alert(1)</script>".into();
        assert!(
            !write(&hostile, &Material::default())
                .draft
                .body
                .contains("<script>")
        );
    }
}
