//! The offline writer: a deterministic draft from the brief alone, used when no AI model is configured. It uses
//! every field of the form, varies with objective and tone, and states nothing the brief does not say.

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

pub fn write(brief: &Brief, material: &Material) -> Written {
    let adjustments = brief.adjustments.to_lowercase();
    let mut notes = Vec::new();
    let mut tone = brief.tone.as_str();
    for (keyword, adjusted) in [
        ("formal", "professional"),
        ("friendl", "friendly"),
        ("warm", "friendly"),
        ("casual", "casual"),
        ("relaxed", "casual"),
    ] {
        if adjustments.contains(keyword) {
            tone = adjusted;
            notes.push(format!("tone set to {adjusted}"));
            break;
        }
    }
    let shorter = SHORTER.iter().any(|word| adjustments.contains(word));
    if shorter {
        notes.push("made shorter".to_string());
    }
    let without_link = NO_LINK.iter().any(|phrase| adjustments.contains(phrase));
    if without_link {
        notes.push("link removed".to_string());
    }
    if !adjustments.trim().is_empty() && notes.is_empty() {
        notes.push(
            "the offline writer only understands shorter, no link, formal, friendly and casual; connect an AI model for other changes"
                .to_string(),
        );
    }

    let name = material
        .business
        .as_ref()
        .map(|business| business.name.clone());
    let recipient = name
        .clone()
        .unwrap_or_else(|| "{{businessName | there}}".to_string());
    let service = sentence_part(&brief.service_description);
    let value = sentence_part(&brief.value_proposition);

    let subject = match brief.objective.as_str() {
        "Marketing Pitch" => format!("Introducing {service}"),
        "Partnership Proposal" => format!("A partnership idea: {service}"),
        _ => match tone {
            "friendly" => format!("An idea for {}: {value}", name.as_deref().unwrap_or("you")),
            "casual" => format!("{}?", capitalise(&value)),
            _ => capitalise(&value),
        },
    };

    let greeting = match tone {
        "friendly" => format!("Hi {recipient},"),
        "casual" => format!("Hey {recipient},"),
        _ => format!("Hello {recipient},"),
    };
    let opening = match brief.objective.as_str() {
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
    let ask = ending(&brief.your_ask);
    let ask = match tone {
        "friendly" => format!("Would you be up for it? {ask}"),
        "casual" => format!("So, how about it? {ask}"),
        _ => format!("Would you be open to it? {ask}"),
    };
    let closing = match tone {
        "friendly" => "Best wishes,",
        "casual" => "Cheers,",
        _ => "Kind regards,",
    };

    let mut paragraphs = vec![escape(&greeting), escape(&opening), escape(&benefit)];
    let facts = education_sentences(brief, material);
    if !shorter && !facts.is_empty() {
        paragraphs.push(format!("A little about us: {}", escape(&facts.join(" "))));
    }
    paragraphs.push(escape(&ask));
    let url = brief.promotional_url.trim();
    if !url.is_empty() && !without_link {
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

    Written {
        draft: Draft {
            subject: truncate_words(&subject, 78),
            body,
        },
        notes,
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

fn first_sentence(text: &str) -> String {
    let end = text
        .find(['.', '!', '?', '\n'])
        .map_or(text.len(), |index| index + 1);
    truncate_words(text[..end].trim(), 200)
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
                        && written.draft.subject.chars().count() <= 79
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
        assert!(
            write(&adjusted, &Material::default()).notes[0]
                .starts_with("the offline writer only understands")
        );
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
