//! The spam check against the real SpamAssassin (issue 81; `make system` installs it): a short, plain note scores
//! low, and the spammy message of the issue ("FREE!!! Click here", a link shortener, one big image) is spam. The same
//! messages through the built-in checks score the same way round.

use outreach_core::Settings;
use outreach_core::sending::compose::{Composed, html_to_text};
use outreach_core::sending::spam::{SpamCheck, builtin_check, check_message};

fn message(subject: &str, body: &str, html: bool) -> Composed {
    let text = html_to_text(body);
    Composed {
        from_name: "Ada Baker".into(),
        from_email: "ada@bakery.example".into(),
        reply_to: None,
        to_email: "owner@cafe-ursula.fi".into(),
        subject: subject.into(),
        body: body.into(),
        html: if html {
            format!("<!doctype html><html><body>{body}</body></html>")
        } else {
            String::new()
        },
        text,
        message_id: "0192abc@bakery.example".into(),
        headers: vec![("List-Id".into(), "<outreach.bakery.example>".into())],
    }
}

async fn spamassassin(composed: &Composed) -> SpamCheck {
    let mut settings = Settings::default();
    settings.deliverability.spamassassin = "auto".into();
    let check = check_message(&settings, composed).await;
    assert_eq!(
        check.engine, "spamassassin",
        "SpamAssassin is not installed: `make system` installs it (apt-get install spamassassin)"
    );
    check
}

#[tokio::test]
async fn spamassassin_scores_a_plain_note_low_and_the_spammy_message_as_spam() {
    let note = message(
        "Bread for Café Ursula",
        "<p>Hi Café Ursula,</p><p>I bake sourdough in Helsinki and wondered whether you would like a weekly delivery. \
         Would a sample box next Tuesday suit you?</p><p>Kind regards,<br>Ada</p>",
        false,
    );
    let clean = spamassassin(&note).await;
    assert!(clean.score <= 1.0, "{clean:?}");
    assert!(!builtin_check(&note).is_spam());

    let spammy = message(
        "FREE!!! Click here NOW",
        "<p><a href=\"https://bit.ly/3xYzAb\"><img src=\"https://img.example/big.jpg\" width=\"600\" height=\"800\"></a></p>\
         <p>FREE!!! Click here</p>",
        true,
    );
    let flagged = spamassassin(&spammy).await;
    println!("SpamAssassin, spammy message: {flagged:?}");
    assert!(flagged.is_spam(), "{flagged:?}");
    let names: Vec<&str> = flagged
        .rules
        .iter()
        .map(|rule| rule.name.as_str())
        .collect();
    assert!(names.iter().any(|name| name.contains("SHORT")), "{names:?}");
    assert!(
        names.iter().any(|name| name.starts_with("HTML_IMAGE")),
        "{names:?}"
    );
    // Highest first, with SpamAssassin's descriptions.
    assert!(
        flagged
            .rules
            .windows(2)
            .all(|pair| pair[0].points >= pair[1].points)
    );
    assert!(
        flagged
            .rules
            .iter()
            .all(|rule| !rule.description.is_empty())
    );
    assert!(builtin_check(&spammy).is_spam());
}

#[tokio::test]
async fn off_or_a_missing_program_falls_back_to_the_built_in_checks() {
    let note = message("Hello", "<p>Hi there, a short note.</p>", false);
    for setting in ["off", "/nonexistent/spamassassin"] {
        let mut settings = Settings::default();
        settings.deliverability.spamassassin = setting.into();
        assert_eq!(
            check_message(&settings, &note).await.engine,
            "builtin",
            "{setting}"
        );
    }
}
