//! Every text transform on full Unicode: personalisation, spintax and fallbacks, HTML to text, MIME and header
//! encoding with subject folding, the lead CSV reader, the inbound mail reader, the crawler's page reader and the
//! reply cut-off. Inputs mix the markers each format is made of with characters that break code written for ASCII:
//! case mappings that change a character's length in UTF-8 ('İ' grows, the Kelvin sign shrinks, 'ß' upper-cases to
//! two letters), combining marks and joiners, right-to-left text and its controls, emoji with modifiers, astral and
//! noncharacters, NUL and the Unicode line separators, besides any code point at all. Run like `fuzz`
//! (`FUZZ_CASES`, `FUZZ_SEED`).

use chrono::NaiveDate;
use mail_parser::MessageParser;
use outreach_core::Settings;
use outreach_core::campaigns::personalise::{Recipient, render, render_html};
use outreach_core::discovery::enrich::extract;
use outreach_core::discovery::import::parse_import;
use outreach_core::platform::config::Secret;
use outreach_core::responses::offline::classify;
use outreach_core::responses::text::own_text;
use outreach_core::sending::compose::{Envelope, compose};
use outreach_core::sending::mime;

use crate::fuzz::{Rng, fuzz};

/// Characters whose case mapping changes their length, combining marks, RTL text and controls, emoji and the rest.
const UNICODE: &[&str] = &[
    "İ",
    "ı",
    "\u{212a}",
    "\u{2126}",
    "ẞ",
    "ß",
    "ŉ",
    "ǰ",
    "ﬁ",
    "ΐ",
    "Σ",
    "ς",
    "e\u{301}",
    "\u{308}",
    "\u{200d}",
    "\u{200b}",
    "שלום",
    "مرحبا",
    "\u{202e}",
    "\u{2066}",
    "👩🏽‍💻",
    "🇫🇮",
    "𝔘",
    "\u{10ffff}",
    "\u{fffe}",
    "\u{feff}",
    "\u{0}",
    "\u{2028}",
    "\u{85}",
    "\r\n",
    "\t",
    " ",
    "İstanbul",
    "=?utf-8?b?SGk=?=",
    "=?",
    "?=",
    "ÅÄÖ",
    "日本語",
];

impl Rng {
    /// Any Unicode scalar value, mostly from the planes text is written in.
    fn any_char(&mut self) -> char {
        let ranges: [(u32, u32); 5] = [
            (0x20, 0x7f),
            (0x80, 0x800),
            (0x800, 0xd800),
            (0xe000, 0x1_0000),
            (0x1_0000, 0x11_0000),
        ];
        let (low, high) = ranges[self.below(ranges.len())];
        char::from_u32(low + (self.next() % u64::from(high - low)) as u32).unwrap_or('\u{fffd}')
    }

    /// A text of `markers`, the Unicode pieces above and any characters.
    fn unicode_text(&mut self, markers: &[&str], pieces: usize) -> String {
        let mut text = String::new();
        for _ in 0..self.below(pieces + 1) {
            match self.below(3) {
                0 if !markers.is_empty() => text.push_str(self.pick(markers)),
                1 => text.push_str(self.pick(UNICODE)),
                _ => text.push(self.any_char()),
            }
        }
        text
    }

    /// A text with no personalisation marker in it (no braces, brackets or pipes).
    fn plain_unicode(&mut self, pieces: usize) -> String {
        self.unicode_text(&[], pieces)
            .replace(['{', '}', '[', ']', '|'], "")
    }
}

const TEMPLATE_MARKERS: &[&str] = &[
    "<p>",
    "</p>",
    "<br>",
    "<a href=\"https://bakery.example/İ\">",
    "</a>",
    "{",
    "}",
    "|",
    "{Hi|Hello}",
    "{{businessName}}",
    "{{ city | İzmir }}",
    "{{website}}",
    "{{category|ẞ}}",
    "[business name]",
    "[Business Name]",
    "[BUSINESS NAME]",
    "&amp;",
    "<script>",
    "</SCRİPT>",
];

fn recipient(rng: &mut Rng) -> Recipient {
    let mut value = || Some(rng.unicode_text(TEMPLATE_MARKERS, 6));
    Recipient {
        business_name: value(),
        city: value(),
        website: value(),
        category: value(),
        icebreaker: value(),
    }
}

#[test]
fn personalisation_of_any_text_for_any_recipient_never_panics() {
    fuzz("personalise", |rng| {
        let template = rng.unicode_text(TEMPLATE_MARKERS, 30);
        let recipient = recipient(rng);
        let plain = render(&template, &recipient, "seed");
        // The same seed chooses the same spintax options: a retried send reads the same.
        assert_eq!(plain, render(&template, &recipient, "seed"));
        render_html(&template, &recipient, "seed");
    });
}

#[test]
fn the_business_placeholder_in_any_case_is_replaced_whatever_text_surrounds_it() {
    fuzz("placeholder", |rng| {
        let name = rng.plain_unicode(4);
        let cafe = Recipient {
            business_name: Some(format!("Café {name}")),
            ..Recipient::default()
        };
        let value = format!("Café {name}").trim().to_string();
        let mut template = String::new();
        let mut expected = String::new();
        for _ in 0..rng.below(6) {
            let text = rng.plain_unicode(8);
            template.push_str(&text);
            expected.push_str(&text);
            let placeholder = rng.pick(&[
                "[business name]",
                "[Business Name]",
                "[BUSINESS NAME]",
                "[bUsInEsS nAmE]",
            ]);
            template.push_str(placeholder);
            expected.push_str(&value);
        }
        let tail = rng.plain_unicode(8);
        template.push_str(&tail);
        expected.push_str(&tail);
        assert_eq!(render(&template, &cafe, "seed").text, expected);
    });
}

#[test]
fn spintax_keeps_text_without_groups_and_resolves_every_group() {
    fuzz("spintax", |rng| {
        // Text without a pipe has no spintax: it comes back as written, stray and lone braces included (`{{` begins
        // a variable, so none here).
        let mut text = rng.unicode_text(&["{", "}", "{word}"], 20).replace('|', "");
        while text.contains("{{") {
            text = text.replace("{{", "{");
        }
        assert_eq!(render(&text, &Recipient::default(), "seed").text, text);
        // Groups of plain options resolve to one of their options each.
        let mut template = String::new();
        let mut groups = Vec::new();
        for _ in 0..rng.below(5) {
            let options: Vec<String> = (0..2 + rng.below(3))
                .map(|_| rng.plain_unicode(3))
                .collect();
            template.push('{');
            template.push_str(&options.join("|"));
            template.push('}');
            groups.push(options);
        }
        let output = render(&template, &Recipient::default(), "seed").text;
        assert!(!output.contains(['{', '|', '}']), "{output:?}");
        assert!(
            one_option_each(&output, &groups),
            "{template:?} gave {output:?}"
        );
    });
}

/// Whether `text` is one option of each group in turn.
fn one_option_each(text: &str, groups: &[Vec<String>]) -> bool {
    match groups.split_first() {
        None => text.is_empty(),
        Some((options, rest)) => options.iter().any(|option| {
            text.strip_prefix(option.as_str())
                .is_some_and(|after| one_option_each(after, rest))
        }),
    }
}

fn settings() -> Settings {
    let mut settings = Settings::default();
    settings.security.secret_key = Secret::new("k".repeat(64));
    settings.http.public_url = "https://out.example.com".into();
    settings
}

#[test]
fn any_subject_name_and_body_is_written_as_mime_that_reads_back_the_same() {
    let settings = settings();
    let parser = MessageParser::default();
    fuzz("mime", |rng| {
        let subject = rng.plain_unicode(40);
        let from_name = rng.plain_unicode(12);
        let postal = rng.plain_unicode(10);
        let body = rng.unicode_text(TEMPLATE_MARKERS, 40);
        let envelope = Envelope {
            from_name: &from_name,
            from_email: "ada@bakery.example",
            reply_to: Some("replies@bakery.example"),
            to_email: "owner@cafe.example",
            postal_address: &postal,
            token: "tok123",
            in_reply_to: Some("first@bakery.example"),
            thread_start: None,
            open_pixel: true,
            track_clicks: true,
            plain_text: false,
        };
        let composed = compose(&settings, &envelope, &subject, &body, &recipient(rng));
        let rendered =
            mime::render(&composed, chrono::DateTime::UNIX_EPOCH).expect("valid addresses");
        assert!(rendered.text.is_ascii(), "7-bit message");
        for line in rendered.text.split("\r\n") {
            assert!(line.len() <= 998, "a line of {} octets", line.len());
            assert!(
                !line.contains(['\r', '\n']),
                "a bare line break in {line:?}"
            );
        }
        let message = parser.parse(rendered.text.as_bytes()).expect("readable");
        let written = composed.subject.replace(['\r', '\n'], " ");
        assert_eq!(
            message.subject().unwrap_or_default().trim(),
            written.trim(),
            "subject of {:?}",
            rendered
                .text
                .lines()
                .find(|line| line.starts_with("Subject:"))
        );
        let name = message
            .from()
            .and_then(|from| from.first())
            .and_then(|from| from.name());
        assert_eq!(name.unwrap_or_default().trim(), from_name.trim());
        let text = message.body_text(0).expect("a text part");
        assert_eq!(
            text.replace("\r\n", "\n"),
            composed.text.replace("\r\n", "\n")
        );
        let html = message.body_html(0).expect("an HTML part");
        assert_eq!(
            html.replace("\r\n", "\n"),
            composed.html.replace("\r\n", "\n")
        );
    });
}

#[test]
fn the_lead_csv_reader_reads_any_unicode_without_panicking() {
    fuzz("csv-unicode", |rng| {
        let file = format!(
            "name,email,website,city\n{}",
            rng.unicode_text(&[",", "\n", "\"", "a@b.co", "\r\n", "İ"], 60)
        );
        if let Ok(parsed) = parse_import(file.as_bytes(), "fuzz") {
            for (_, candidate) in parsed.rows {
                assert!(!candidate.name.trim().is_empty());
            }
        }
    });
}

const MAIL_MARKERS: &[&str] = &[
    "Subject: ",
    "From: İ <owner@cafe.example>\r\n",
    "In-Reply-To: <a@b>\r\n",
    "Content-Type: text/plain; charset=utf-8\r\n",
    "Content-Type: text/html; charset=iso-8859-1\r\n",
    "Subject: =?utf-8?b?xLA=?=\r\n",
    "=?utf-8?q?=C4=B0?=",
    "\r\n\r\n",
    "> ",
    "On Mon, Ada wrote:\r\n",
    "Am Montag schrieb Ada:\r\n",
    "-----Original Message-----\r\n",
];

#[test]
fn the_inbound_reader_and_the_reply_cut_off_read_any_unicode_without_panicking() {
    let today = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
    fuzz("reply-unicode", |rng| {
        let raw = rng.unicode_text(MAIL_MARKERS, 40);
        if let Some(message) = outreach_core::inbound::mail::read(raw.as_bytes()) {
            let own = own_text(&message.text);
            // The cut-off keeps lines of the reply, in order, and never invents text.
            let mut lines = message.text.lines().map(str::trim);
            for kept in own.lines() {
                assert!(
                    lines.any(|line| line == kept),
                    "{kept:?} is not a line of the reply"
                );
            }
            classify(&message.subject, &message.text, today);
        }
        let body = rng.unicode_text(MAIL_MARKERS, 30);
        let own = own_text(&body);
        assert!(own.len() <= body.len());
        let reading = classify(&body, &body, today);
        assert!((0.0..=1.0).contains(&reading.confidence));
    });
}

#[test]
fn the_crawler_reads_any_page_without_panicking_and_finds_its_links() {
    let page = url::Url::parse("https://www.bakery.example.fi/").unwrap();
    fuzz("crawler-unicode", |rng| {
        let noise = rng.unicode_text(
            &[
                "<",
                ">",
                "<SCRİPT>",
                "</script>",
                "<style>",
                "href=",
                "\"",
                "[at]",
                "(dot)",
                "mailto:",
            ],
            40,
        );
        let html = format!("{noise}<a href=\"mailto:sales@bakery.example.fi\">İ</a>");
        let findings = extract(&html, &page);
        // Unless the noise left a tag, quote or comment open around it, the link's address is found.
        if !noise.contains(['<', '>', '"']) {
            assert!(
                findings
                    .emails
                    .iter()
                    .any(|email| email.address == "sales@bakery.example.fi"),
                "{html:?}"
            );
        }
    });
}
