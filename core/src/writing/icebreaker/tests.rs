use super::*;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
}

fn fact(kind: FactKind, claim: &str, quote: &str) -> Fact {
    Fact {
        kind,
        claim: claim.into(),
        url: "https://cafe.example/".into(),
        quote: quote.into(),
    }
}

#[test]
fn no_fact_no_line() {
    assert_eq!(offline_line(&[], "en", today()), None);
}

#[test]
fn offline_lines_in_five_languages_state_only_their_facts() {
    let facts = [
        fact(
            FactKind::Founded,
            "1987",
            "Kahvila Pulla on perustettu vuonna 1987.",
        ),
        fact(
            FactKind::Owner,
            "Anna Virtanen",
            "Omistaja Anna Virtanen leipoo.",
        ),
        fact(
            FactKind::Award,
            "Helsinki Barista Cup 2026",
            "We won the Helsinki Barista Cup 2026",
        ),
        fact(
            FactKind::News,
            "Avasimme toisen kahvilan Kallioon",
            "Avasimme toisen kahvilan Kallioon",
        ),
        fact(
            FactKind::Product,
            "Schwarzwälder Kirschtorte",
            "Bekannt für unsere Schwarzwälder Kirschtorte.",
        ),
        fact(
            FactKind::Neighbourhood,
            "Malasaña",
            "en pleno barrio de Malasaña.",
        ),
    ];
    for language in LANGUAGES {
        for (index, single) in facts.iter().enumerate() {
            let line = offline_line(std::slice::from_ref(single), language, today()).unwrap();
            assert_eq!(line.language, language);
            assert!(line.text.contains(&single.claim), "{line:?}");
            assert_eq!(line.sources, vec![single.clone()]);
            assert_eq!(
                check(&line.text, &facts[index..=index], "Kahvila Pulla"),
                Ok(()),
                "{line:?}"
            );
        }
        // The award comes first.
        let line = offline_line(&facts, language, today()).unwrap();
        assert_eq!(line.sources[0].kind, FactKind::Award);
    }
    let english = offline_line(&facts[..1], "en-GB", today()).unwrap();
    assert_eq!(
        english.text,
        "Since 1987 – that is a long run for a business, and it shows."
    );
    assert_eq!(
        offline_line(&facts[..1], "sv", today()).unwrap().language,
        "en"
    );
}

#[test]
fn the_check_refuses_numbers_and_names_not_in_the_facts() {
    let facts = [fact(
        FactKind::Founded,
        "1987",
        "Kahvila Pulla on perustettu vuonna 1987.",
    )];
    assert_eq!(
        check(
            "Since 1987, Kahvila Pulla has baked for Helsinki.",
            &facts,
            "Kahvila Pulla"
        ),
        Err("“Helsinki” is not in the facts".into())
    );
    assert_eq!(
        check("Congratulations on 40 years!", &facts, "Kahvila Pulla"),
        Err("the number 40 is not in the facts".into())
    );
    assert_eq!(
        check(
            "Since 1987 – what a run for Kahvila Pulla.",
            &facts,
            "Kahvila Pulla"
        ),
        Ok(())
    );
    assert!(check(&"a".repeat(301), &facts, "x").is_err());
}

#[test]
fn edits_are_short_and_use_known_variables_only() {
    assert_eq!(
        validate_edit("  Loved the buns at {{businessName}}. "),
        Ok("Loved the buns at {{businessName}}.".into())
    );
    assert!(validate_edit(&"x".repeat(301)).unwrap_err().contains("300"));
    assert!(
        validate_edit("Hi {{firstName}}")
            .unwrap_err()
            .contains("firstName")
    );
    assert!(
        validate_edit("{{icebreaker}} again")
            .unwrap_err()
            .contains("icebreaker")
    );
    assert_eq!(validate_edit(""), Ok(String::new()));
}
