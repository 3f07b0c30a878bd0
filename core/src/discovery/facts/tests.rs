use super::*;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
}

fn claims(facts: &[Fact]) -> Vec<(FactKind, &str)> {
    facts
        .iter()
        .map(|fact| (fact.kind, fact.claim.as_str()))
        .collect()
}

#[test]
fn facts_come_with_their_sentence_and_traps_give_none() {
    let home = Page::parse(
        r#"<html lang="en"><body><div id="cookie-consent"><p>Since 2018 we use cookies.</p></div>
        <nav><a href="/about">Founded 1990</a></nav>
        <h1>Bluebird Coffee</h1><p>Specialty coffee in the heart of Kallio. Bluebird was founded in 2009 by Maria Lindqvist.</p>
        <p>We are best known for our cardamom buns.</p><p>Since 2020 we also deliver.</p>
        <div class="testimonial"><p>Nordic Paper Co. has made notebooks since 1921.</p></div>
        <p>Lorem ipsum, winner of the Gold Cup 2026.</p>
        <p>Congratulations to Bean There Café on winning the Coffee Awards 2026!</p>
        <footer><p>© 2009–2026 Bluebird Coffee</p></footer></body></html>"#,
        "https://bluebird.example/",
    );
    let news = Page::parse(
        "<article><h2>We won the Helsinki Barista Cup 2026</h2><time datetime='2026-05-10'>10 May</time></article>\
         <article><h2>Pop-up in Turku</h2><time datetime='2021-06-01'>1 June 2021</time></article>\
         <p>Voted Best Café 2019 by readers.</p>",
        "https://bluebird.example/news",
    );
    let facts = facts_of(&[home.clone(), news.clone()], "Bluebird Coffee", today());
    assert_eq!(
        claims(&facts),
        vec![
            (FactKind::Neighbourhood, "Kallio"),
            (FactKind::Founded, "2009"),
            (FactKind::Owner, "Maria Lindqvist"),
            (FactKind::Product, "cardamom buns"),
            (FactKind::Award, "Helsinki Barista Cup 2026"),
            (FactKind::News, "We won the Helsinki Barista Cup 2026"),
        ]
    );
    for fact in &facts {
        let page = if fact.url.ends_with("/news") {
            &news
        } else {
            &home
        };
        assert!(quote_on_page(&fact.quote, &page.visible_text()), "{fact:?}");
        assert!(fact.quote.contains(&fact.claim), "{fact:?}");
    }
    assert_eq!(
        facts[1].quote,
        "Bluebird was founded in 2009 by Maria Lindqvist."
    );
}

#[test]
fn five_languages() {
    let cases = [
        (
            "<p>Seit 1952 backen wir. Inhaber: Thomas Hoffmann, Bäckermeister. Unsere Spezialität ist das Roggenbrot mit Sauerteig.</p>",
            vec![
                (FactKind::Founded, "1952"),
                (FactKind::Owner, "Thomas Hoffmann"),
                (FactKind::Product, "Roggenbrot"),
            ],
        ),
        (
            "<p>Ouvert depuis 1998 au cœur du Marais.</p><p>Margot Lefèvre, fondatrice et cheffe, cuisine.</p>",
            vec![
                (FactKind::Founded, "1998"),
                (FactKind::Neighbourhood, "Marais"),
                (FactKind::Owner, "Margot Lefèvre"),
            ],
        ),
        (
            "<p>Fundada en 2003 por la doctora Elena Ruiz.</p><p>Recomendado por la Guía Michelin 2026.</p>",
            vec![
                (FactKind::Founded, "2003"),
                (FactKind::Owner, "Elena Ruiz"),
                (FactKind::Award, "Guía Michelin 2026"),
            ],
        ),
        (
            "<p>Kahvila on perustettu vuonna 1987. Omistaja Anna Virtanen leipoo. Erikoisuutemme on korvapuusti, joka leivotaan aamulla.</p>",
            vec![
                (FactKind::Founded, "1987"),
                (FactKind::Owner, "Anna Virtanen"),
                (FactKind::Product, "korvapuusti"),
            ],
        ),
        (
            "<p>Lucía Fernández, fundadora de Heladería Polar, elabora helado.</p>",
            vec![(FactKind::Owner, "Lucía Fernández")],
        ),
        (
            "<p>Konditormeisterin Klara Sommer führt den Betrieb seit 2010 als Inhaberin.</p>",
            vec![(FactKind::Owner, "Klara Sommer")],
        ),
    ];
    for (html, expected) in cases {
        let page = Page::parse(html, "https://x.example/");
        assert_eq!(
            claims(&facts_of(&[page], "Heladería Polar", today())),
            expected,
            "{html}"
        );
    }
}

#[test]
fn json_ld_counts_only_with_a_visible_sentence() {
    let hidden = Page::parse(
        r#"<script type="application/ld+json">{"@type":"Store","founder":"Oliver Grant","foundingDate":"2011"}</script><p>Bike repairs.</p>"#,
        "https://spoke.example/",
    );
    assert!(facts_of(&[hidden], "Spoke", today()).is_empty());
    let shown = Page::parse(
        r#"<script type="application/ld+json">{"founder":{"@type":"Person","name":"Oliver Grant"}}</script><p>Ask Oliver Grant about wheels.</p>"#,
        "https://spoke.example/",
    );
    assert_eq!(
        claims(&facts_of(&[shown], "Spoke", today())),
        vec![(FactKind::Owner, "Oliver Grant")]
    );
}
