//! Answers to replies: what a writer is given (the campaign's education material and the thread, as data), and the
//! offline writer's short, honest answer in the prospect's language. It thanks them, gives the education sentence
//! that shares most words with their reply (never a price, a date or a claim of its own), and closes as the
//! campaign's sales aggressiveness asks, always patiently.

use crate::campaigns::ai_settings::SalesAggressiveness;
use crate::campaigns::personalise::sanitize_html;
use crate::writing::ai::Draft;

use super::classification::Action;
use super::text::fold;

/// What writing an answer may use.
#[derive(Debug, Clone)]
pub struct AnswerBrief {
    /// ISO 639-1 code of the reply's language.
    pub language: String,
    pub action: Action,
    pub aggressiveness: SalesAggressiveness,
    pub sender_name: String,
    /// The business the prospect works for, when known.
    pub business_name: Option<String>,
    /// (source, text) of the campaign's education material.
    pub education: Vec<(String, String)>,
    /// The earlier emails of the thread, oldest first.
    pub thread: Vec<String>,
    /// The subject of the email the reply answers (the answer's subject is "Re: " + it).
    pub thread_subject: String,
    pub reply_text: String,
}

/// The words of each language the offline answer is made of.
struct Phrases {
    greeting: &'static str,
    thanks_interest: &'static str,
    thanks_question: &'static str,
    thanks: &'static str,
    fact: &'static str,
    personally: &'static str,
    soft: &'static str,
    moderate: &'static str,
    assertive: &'static str,
    aggressive: &'static str,
    regards: &'static str,
}

const ENGLISH: Phrases = Phrases {
    greeting: "Hello",
    thanks_interest: "Thank you for your reply, I am glad to hear you are interested.",
    thanks_question: "Thank you for your question.",
    thanks: "Thank you for your reply.",
    fact: "Here is what I can tell you:",
    personally: "I will follow up personally on anything this does not answer.",
    soft: "There is no rush: write whenever it suits you.",
    moderate: "Would a short call suit you to go through the details?",
    assertive: "Shall we book a short call? Reply with a time that suits you.",
    aggressive: "Reply with a time for a short call and we can get you started.",
    regards: "Best regards,",
};
const GERMAN: Phrases = Phrases {
    greeting: "Guten Tag",
    thanks_interest: "Vielen Dank für Ihre Antwort, es freut mich, dass Sie interessiert sind.",
    thanks_question: "Vielen Dank für Ihre Frage.",
    thanks: "Vielen Dank für Ihre Antwort.",
    fact: "Dazu kann ich Ihnen sagen:",
    personally: "Was hier offen bleibt, beantworte ich Ihnen gerne persönlich.",
    soft: "Es eilt nicht: Melden Sie sich, wann es Ihnen passt.",
    moderate: "Passt Ihnen ein kurzes Telefonat, um die Einzelheiten zu besprechen?",
    assertive: "Sollen wir ein kurzes Telefonat vereinbaren? Nennen Sie mir einfach eine passende Zeit.",
    aggressive: "Nennen Sie mir eine Zeit für ein kurzes Telefonat, dann legen wir los.",
    regards: "Viele Grüße",
};
const FRENCH: Phrases = Phrases {
    greeting: "Bonjour",
    thanks_interest: "Merci pour votre réponse, je suis ravi de votre intérêt.",
    thanks_question: "Merci pour votre question.",
    thanks: "Merci pour votre réponse.",
    fact: "Voici ce que je peux vous dire :",
    personally: "Je reviendrai vers vous personnellement pour tout ce qui reste en suspens.",
    soft: "Rien ne presse : écrivez-moi quand cela vous convient.",
    moderate: "Un court appel vous conviendrait-il pour en parler ?",
    assertive: "Fixons-nous un court appel ? Indiquez-moi un moment qui vous convient.",
    aggressive: "Indiquez-moi un moment pour un court appel et nous pourrons commencer.",
    regards: "Bien cordialement,",
};
const SPANISH: Phrases = Phrases {
    greeting: "Hola",
    thanks_interest: "Gracias por su respuesta, me alegra saber que le interesa.",
    thanks_question: "Gracias por su pregunta.",
    thanks: "Gracias por su respuesta.",
    fact: "Esto es lo que puedo decirle:",
    personally: "Le responderé personalmente sobre todo lo que quede pendiente.",
    soft: "No hay prisa: escríbame cuando le venga bien.",
    moderate: "¿Le vendría bien una breve llamada para ver los detalles?",
    assertive: "¿Agendamos una breve llamada? Indíqueme un momento que le convenga.",
    aggressive: "Indíqueme un momento para una breve llamada y empezamos.",
    regards: "Saludos cordiales,",
};
const FINNISH: Phrases = Phrases {
    greeting: "Hei",
    thanks_interest: "Kiitos vastauksestanne, hienoa kuulla että olette kiinnostuneita.",
    thanks_question: "Kiitos kysymyksestänne.",
    thanks: "Kiitos vastauksestanne.",
    fact: "Voin kertoa tästä seuraavaa:",
    personally: "Palaan henkilökohtaisesti kaikkeen, mihin tämä ei vastaa.",
    soft: "Ei kiirettä: kirjoittakaa, kun teille sopii.",
    moderate: "Sopisiko teille lyhyt puhelu yksityiskohtien läpikäymiseksi?",
    assertive: "Sovitaanko lyhyt puhelu? Kertokaa teille sopiva aika.",
    aggressive: "Kertokaa sopiva aika lyhyelle puhelulle, niin päästään alkuun.",
    regards: "Ystävällisin terveisin,",
};

fn phrases(language: &str) -> &'static Phrases {
    match language {
        "de" => &GERMAN,
        "fr" => &FRENCH,
        "es" => &SPANISH,
        "fi" => &FINNISH,
        _ => &ENGLISH,
    }
}

/// The offline writer's answer.
pub fn offline(brief: &AnswerBrief) -> Draft {
    let words = phrases(&brief.language);
    let mut paragraphs = Vec::new();
    paragraphs.push(match &brief.business_name {
        Some(name) => format!("{} {},", words.greeting, name),
        None => format!("{},", words.greeting),
    });
    paragraphs.push(
        match brief.action {
            Action::MarkInterested => words.thanks_interest,
            Action::Reply => words.thanks_question,
            _ => words.thanks,
        }
        .to_string(),
    );
    if let Some(fact) = best_sentence(&brief.education, &brief.reply_text) {
        paragraphs.push(format!("{} {}", words.fact, fact));
    }
    if brief.action == Action::Reply {
        paragraphs.push(words.personally.to_string());
    }
    paragraphs.push(
        match brief.aggressiveness {
            SalesAggressiveness::Soft => words.soft,
            SalesAggressiveness::Moderate => words.moderate,
            SalesAggressiveness::Assertive => words.assertive,
            SalesAggressiveness::Aggressive => words.aggressive,
        }
        .to_string(),
    );
    let signature = format!(
        "{}<br>{}",
        words.regards,
        html_escape::encode_text(&brief.sender_name)
    );
    let body: String = paragraphs
        .iter()
        .map(|text| format!("<p>{}</p>", html_escape::encode_text(text)))
        .chain(std::iter::once(format!("<p>{signature}</p>")))
        .collect();
    Draft {
        subject: answer_subject(&brief.thread_subject),
        body: sanitize_html(&body),
    }
}

/// "Re: " + the thread's subject, once.
pub fn answer_subject(thread_subject: &str) -> String {
    let subject = thread_subject.trim();
    let lower = subject.to_lowercase();
    if ["re:", "aw:", "vs:", "sv:", "r:"]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
    {
        subject.to_string()
    } else {
        format!("Re: {subject}")
    }
}

/// The sentence of the education material that shares most (longer) words with the reply; the first sentence when
/// none shares any; none without material. Sentences that state a number are left out: prices, dates and figures
/// are for the sender to give.
fn best_sentence(education: &[(String, String)], reply: &str) -> Option<String> {
    let reply_words: Vec<String> = fold(reply)
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| word.chars().count() > 3)
        .map(str::to_string)
        .collect();
    let sentences: Vec<&str> = education
        .iter()
        .flat_map(|(_, text)| text.split_inclusive(['.', '!', '?', '\n']))
        .map(str::trim)
        .filter(|sentence| sentence.chars().count() > 20 && sentence.chars().count() < 300)
        .filter(|sentence| !sentence.chars().any(|ch| ch.is_ascii_digit()))
        .collect();
    let shared = |sentence: &str| {
        let folded = fold(sentence);
        reply_words
            .iter()
            .filter(|word| folded.contains(word.as_str()))
            .count()
    };
    sentences
        .iter()
        .max_by_key(|sentence| (shared(sentence), std::cmp::Reverse(sentences.len())))
        .filter(|sentence| shared(sentence) > 0)
        .or(sentences.first())
        .map(|sentence| sentence.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(language: &str, reply: &str) -> AnswerBrief {
        AnswerBrief {
            language: language.into(),
            action: Action::Reply,
            aggressiveness: SalesAggressiveness::Moderate,
            sender_name: "Ada <Nordic Bakery>".into(),
            business_name: Some("Cafe Aalto".into()),
            education: vec![(
                "notes".into(),
                "We bake sourdough and rye every night. Deliveries arrive before the café opens. A week of bread \
                 costs 120 euros."
                    .into(),
            )],
            thread: vec![],
            thread_subject: "Fresh bread".into(),
            reply_text: reply.into(),
        }
    }

    #[test]
    fn the_answer_quotes_the_education_that_fits_and_invents_no_price() {
        let draft = offline(&brief("en", "Do your deliveries arrive early enough?"));
        assert_eq!(draft.subject, "Re: Fresh bread");
        assert!(
            draft
                .body
                .contains("Deliveries arrive before the café opens."),
            "{}",
            draft.body
        );
        assert!(
            !draft.body.contains("120"),
            "a sentence with a figure is never used: {}",
            draft.body
        );
        assert!(draft.body.contains("follow up personally"));
        assert!(
            draft.body.contains("Ada &lt;Nordic Bakery&gt;"),
            "{}",
            draft.body
        );
    }

    #[test]
    fn the_answer_is_in_the_prospects_language() {
        let draft = offline(&brief("fi", "Toimitatteko aamulla?"));
        assert!(
            draft
                .body
                .starts_with("<p>Hei Cafe Aalto,</p><p>Kiitos kysymyksestänne.</p>"),
            "{}",
            draft.body
        );
        assert_eq!(answer_subject("AW: Frisches Brot"), "AW: Frisches Brot");
    }
}
