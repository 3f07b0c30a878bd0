//! Evaluating a reply classifier on a labelled set (`outreach eval replies FILE.jsonl`): one JSON object per line
//! with `subject`, `body`, `sentiment`, `action`, `escalate` and `auto`. Automatic answers are scored only on being
//! recognised as automatic; the others on sentiment and action (per-class precision and recall, macro-F1) and on
//! escalation (recall and precision of "a person must see this").

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::classification::{Action, Classification, Sentiment};
pub use super::labelled::{Labelled, read_set};

/// What the classifier said of one reply: whether it took it for an automatic answer, and else its reading.
#[derive(Debug, Clone)]
pub struct Predicted {
    pub auto: bool,
    pub reading: Option<Classification>,
}

/// Runs a classifier over a set: an automatic answer is told by its words, the others are read (`read_reply`).
pub async fn predict(
    set: &[Labelled],
    writer: &crate::writing::ai::writer::Writer,
    today: chrono::NaiveDate,
) -> Vec<Predicted> {
    let mut predicted = Vec::with_capacity(set.len());
    for labelled in set {
        if super::offline::is_automatic(&labelled.subject, &labelled.body) {
            predicted.push(Predicted {
                auto: true,
                reading: None,
            });
        } else {
            let reading = super::read_reply(writer, &labelled.subject, &labelled.body, today).await;
            predicted.push(Predicted {
                auto: false,
                reading: Some(reading.classification),
            });
        }
    }
    predicted
}

/// Cross-validation of the offline reader: each language's replies are dealt into `folds` parts, and each part is read
/// by a model trained on all the other parts (the rules are the same throughout). Returns the predictions in the
/// order of `sets`, flattened.
pub fn cross_validate(
    sets: &[(String, Vec<Labelled>)],
    folds: usize,
    today: chrono::NaiveDate,
) -> Vec<Predicted> {
    let folds = folds.max(2);
    let fold_of: Vec<Vec<usize>> = sets
        .iter()
        .map(|(_, set)| (0..set.len()).map(|index| index % folds).collect())
        .collect();
    let mut predicted: Vec<Vec<Option<Predicted>>> =
        sets.iter().map(|(_, set)| vec![None; set.len()]).collect();
    for fold in 0..folds {
        let training: Vec<Labelled> = sets
            .iter()
            .zip(&fold_of)
            .flat_map(|((_, set), of)| {
                set.iter()
                    .zip(of)
                    .filter(|(_, part)| **part != fold)
                    .map(|(labelled, _)| labelled.clone())
            })
            .collect();
        let model = super::learned::Model::train(&training);
        for (((_, set), of), out) in sets.iter().zip(&fold_of).zip(&mut predicted) {
            for ((labelled, part), slot) in set.iter().zip(of).zip(out.iter_mut()) {
                if *part == fold {
                    *slot = Some(read_offline(&model, labelled, today));
                }
            }
        }
    }
    predicted
        .into_iter()
        .flatten()
        .map(|guess| guess.expect("every reply is in one fold"))
        .collect()
}

fn read_offline(
    model: &super::learned::Model,
    labelled: &Labelled,
    today: chrono::NaiveDate,
) -> Predicted {
    if super::offline::is_automatic_with(model, &labelled.subject, &labelled.body) {
        Predicted {
            auto: true,
            reading: None,
        }
    } else {
        Predicted {
            auto: false,
            reading: Some(super::offline::classify_with(
                model,
                &labelled.subject,
                &labelled.body,
                today,
            )),
        }
    }
}

/// One line of figures per language (`languages` gives each reply's, in the order of `set`).
pub fn score_by_language(
    set: &[Labelled],
    predicted: &[Predicted],
    languages: &[String],
) -> String {
    let mut names: Vec<&String> = languages.iter().collect();
    names.sort();
    names.dedup();
    let mut lines = String::new();
    for name in names {
        let (part, guesses): (Vec<Labelled>, Vec<Predicted>) = set
            .iter()
            .zip(predicted)
            .zip(languages)
            .filter(|(_, language)| *language == name)
            .map(|((labelled, guess), _)| (labelled.clone(), guess.clone()))
            .unzip();
        let scores = score(&part, &guesses);
        let _ = writeln!(
            lines,
            "  {name}: sentiment_f1={:.3} action_f1={:.3} escalation_recall={:.3} auto={:.3} (n={})",
            scores.sentiment_f1,
            scores.action_f1,
            scores.escalation_recall,
            scores.auto_accuracy,
            part.len()
        );
    }
    lines
}

/// How a prediction differs from its label, in words; none when it agrees.
pub fn difference(label: &Labelled, guess: &Predicted) -> Option<String> {
    if label.auto != guess.auto {
        return Some(format!("automatic {} read as {}", label.auto, guess.auto));
    }
    let reading = guess.reading.as_ref()?;
    let mut misses = Vec::new();
    if reading.sentiment != label.sentiment {
        misses.push(format!(
            "sentiment {} read as {}",
            label.sentiment, reading.sentiment
        ));
    }
    if reading.action != label.action {
        misses.push(format!(
            "action {} read as {}",
            label.action, reading.action
        ));
    }
    let escalated = !reading.escalations.is_empty();
    if label.escalate != escalated {
        misses.push(format!(
            "escalate {} read as {:?}",
            label.escalate, reading.escalations
        ));
    }
    (!misses.is_empty()).then(|| misses.join(", "))
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    true_positive: usize,
    false_positive: usize,
    false_negative: usize,
}

impl Counts {
    fn precision(&self) -> f64 {
        ratio(self.true_positive, self.true_positive + self.false_positive)
    }
    fn recall(&self) -> f64 {
        ratio(self.true_positive, self.true_positive + self.false_negative)
    }
    fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Per-class counts of a labelling.
fn per_class<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> BTreeMap<&'a str, Counts> {
    let mut classes: BTreeMap<&str, Counts> = BTreeMap::new();
    for (truth, guess) in pairs {
        if truth == guess {
            classes.entry(truth).or_default().true_positive += 1;
        } else {
            classes.entry(truth).or_default().false_negative += 1;
            classes.entry(guess).or_default().false_positive += 1;
        }
    }
    classes
}

/// The scores of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    pub sentiment_f1: f64,
    pub action_f1: f64,
    pub escalation_recall: f64,
    pub escalation_precision: f64,
    pub auto_accuracy: f64,
    /// The printed report, its last line `sentiment_f1=… action_f1=… escalation_recall=…`.
    pub report: String,
}

/// Scores predictions against their labels (same order).
pub fn score(set: &[Labelled], predicted: &[Predicted]) -> Scores {
    let mut report = String::new();
    let replies: Vec<(&Labelled, &Classification)> = set
        .iter()
        .zip(predicted)
        .filter(|(label, _)| !label.auto)
        .map(|(label, guess)| {
            // A reply taken for an automatic answer was not read at all: it scores as a neutral, unescalated reply.
            (label, guess.reading.as_ref().unwrap_or(&UNREAD))
        })
        .collect();
    let mut table = |title: &str, classes: BTreeMap<&str, Counts>| -> f64 {
        let _ = writeln!(report, "{title}:");
        for (name, counts) in &classes {
            let _ = writeln!(
                report,
                "  {name:<20} precision {:.3}  recall {:.3}  f1 {:.3}  (n={})",
                counts.precision(),
                counts.recall(),
                counts.f1(),
                counts.true_positive + counts.false_negative
            );
        }
        let macro_f1 = classes.values().map(Counts::f1).sum::<f64>() / classes.len().max(1) as f64;
        let _ = writeln!(report, "  macro-F1 {macro_f1:.3}");
        macro_f1
    };
    let sentiment_f1 = table(
        "sentiment",
        per_class(
            replies
                .iter()
                .map(|(label, guess)| (label.sentiment.as_str(), guess.sentiment.as_str())),
        ),
    );
    let action_f1 = table(
        "action",
        per_class(
            replies
                .iter()
                .map(|(label, guess)| (label.action.as_str(), guess.action.as_str())),
        ),
    );
    let mut escalation = Counts::default();
    for (label, guess) in &replies {
        match (label.escalate, !guess.escalations.is_empty()) {
            (true, true) => escalation.true_positive += 1,
            (true, false) => escalation.false_negative += 1,
            (false, true) => escalation.false_positive += 1,
            (false, false) => {}
        }
    }
    let automatic = set
        .iter()
        .zip(predicted)
        .filter(|(label, guess)| label.auto == guess.auto)
        .count();
    let auto_accuracy = ratio(automatic, set.len());
    let _ = writeln!(
        report,
        "escalation: recall {:.3}  precision {:.3}  (n={})",
        escalation.recall(),
        escalation.precision(),
        escalation.true_positive + escalation.false_negative
    );
    let _ = writeln!(
        report,
        "automatic answers: accuracy {auto_accuracy:.3} ({automatic} of {})",
        set.len()
    );
    let _ = write!(
        report,
        "sentiment_f1={sentiment_f1:.3} action_f1={action_f1:.3} escalation_recall={:.3}",
        escalation.recall()
    );
    Scores {
        sentiment_f1,
        action_f1,
        escalation_recall: escalation.recall(),
        escalation_precision: escalation.precision(),
        auto_accuracy,
        report,
    }
}

static UNREAD: Classification = Classification {
    sentiment: Sentiment::Neutral,
    action: Action::Reply,
    confidence: 0.0,
    language: String::new(),
    summary: String::new(),
    escalations: Vec::new(),
    follow_up_on: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn labelled(sentiment: Sentiment, action: Action, escalate: bool, auto: bool) -> Labelled {
        Labelled {
            subject: String::new(),
            body: String::new(),
            sentiment,
            action,
            escalate,
            auto,
            note: None,
        }
    }

    fn guess(sentiment: Sentiment, action: Action, escalated: bool) -> Predicted {
        Predicted {
            auto: false,
            reading: Some(Classification {
                sentiment,
                action,
                confidence: 0.9,
                language: "en".into(),
                summary: String::new(),
                escalations: if escalated {
                    vec![super::super::Escalation::Price]
                } else {
                    vec![]
                },
                follow_up_on: None,
            }),
        }
    }

    #[test]
    fn scores_are_per_class_macro_averages_and_the_last_line_names_them() {
        use Action::*;
        use Sentiment::*;
        let set = [
            labelled(Positive, MarkInterested, false, false),
            labelled(Negative, MarkNotInterested, true, false),
            labelled(Neutral, Reply, false, false),
            labelled(Neutral, Reply, false, true),
        ];
        let predicted = [
            guess(Positive, MarkInterested, false),
            guess(Negative, MarkNotInterested, false),
            guess(Positive, Reply, true),
            Predicted {
                auto: true,
                reading: None,
            },
        ];
        let scores = score(&set, &predicted);
        // Sentiment: positive p 0.5 r 1 (f1 0.667), negative 1, neutral r 0 (f1 0): 0.556.
        assert!(
            (scores.sentiment_f1 - 0.5556).abs() < 0.001,
            "{}",
            scores.report
        );
        assert!((scores.action_f1 - 1.0).abs() < 1e-9);
        assert_eq!(
            (
                scores.escalation_recall,
                scores.escalation_precision,
                scores.auto_accuracy
            ),
            (0.0, 0.0, 1.0)
        );
        assert_eq!(
            scores.report.lines().last(),
            Some("sentiment_f1=0.556 action_f1=1.000 escalation_recall=0.000")
        );
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number() {
        let error = read_set("{\"subject\":\"a\",\"body\":\"b\",\"sentiment\":\"positive\",\"action\":\"reply\",\"escalate\":false,\"auto\":false}\n{\"subject\":1}").unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
    }
}
