//! Fuzzing of the three readers of outside input, as seeded property runs (the toolchain is stable only, so
//! cargo-fuzz's libFuzzer is not available): inputs are built from the pieces each format is made of and mutated at
//! the byte level, and every run checks what must always hold. `make test` runs `FUZZ_CASES` (default 3,000) cases a
//! target; a longer run is `FUZZ_CASES=2000000 cargo test --release -p outreach-core --test fuzz`. A failure prints
//! its seed: `FUZZ_SEED=<seed>` runs that case sequence again.
//!
//! - the inbound mail reader never panics, and what it reports is well-formed;
//! - a template that passes validation, rendered for any recipient data, holds only the sanitiser's tags, only a
//!   link's `href` and `rel`, and only http(s) and mailto links: data never becomes markup;
//! - the lead CSV reader never panics, and every row it keeps is within its limits.

use outreach_core::campaigns::templates::TemplateInput;

use outreach_core::campaigns::personalise::{Recipient, render_html};
use outreach_core::discovery::import::parse_import;
use outreach_core::platform::limits::{CSV_CELL_LIMIT, CSV_ROW_LIMIT};
use outreach_core::testing::assert_only_safe_markup;

/// xorshift64*: small, fast, reproducible from its seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub(crate) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    /// A text of up to `pieces` items of `alphabet`.
    pub(crate) fn text(&mut self, alphabet: &[&str], pieces: usize) -> String {
        (0..self.below(pieces + 1))
            .map(|_| self.pick(alphabet))
            .collect()
    }
    /// Flips, drops, doubles or inserts bytes.
    pub(crate) fn mutate(&mut self, bytes: &mut Vec<u8>) {
        for _ in 0..self.below(8) {
            if bytes.is_empty() {
                bytes.push(self.next() as u8);
                continue;
            }
            let at = self.below(bytes.len());
            match self.below(4) {
                0 => bytes[at] = self.next() as u8,
                1 => {
                    bytes.remove(at);
                }
                2 => {
                    let byte = bytes[at];
                    bytes.insert(at, byte);
                }
                _ => {
                    const SPECIAL: &[u8] = b"<>{}|\"'\r\n=:;,@&";
                    bytes.insert(at, SPECIAL[self.below(SPECIAL.len())]);
                }
            }
        }
    }
}

fn cases() -> usize {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(3_000)
}

/// Runs `case` with a fresh generator per case; a failing case names the seed that makes it again.
pub(crate) fn fuzz(target: &str, case: impl Fn(&mut Rng) + std::panic::RefUnwindSafe) {
    let first = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    for index in 0..cases() as u64 {
        let seed = first.wrapping_add(index.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1;
        let outcome = std::panic::catch_unwind(|| case(&mut Rng(seed)));
        if let Err(panic) = outcome {
            let reason = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
                .unwrap_or_default();
            panic!("{target}: the case of FUZZ_SEED={seed} (with FUZZ_CASES=1) fails: {reason}");
        }
    }
}

const MAIL_PIECES: &[&str] = &[
    "From: Owner <owner@cafe.example>\r\n",
    "From: =?utf-8?B?w4Rp?= <X@Y>\r\n",
    "To: ada@bakery.example\r\n",
    "Subject: Re: Bread\r\n",
    "Subject: Automatic reply: away\r\n",
    "Subject: =?iso-8859-1?Q?R=E9ponse_automatique?=\r\n",
    "In-Reply-To: <a@b>\r\n",
    "References: <a@b> <c@d>\r\n",
    "Message-ID: <m@cafe.example>\r\n",
    "Auto-Submitted: auto-replied\r\n",
    "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n",
    "Content-Type: multipart/alternative; boundary=b\r\n",
    "Content-Type: text/html; charset=utf-8\r\n",
    "Content-Transfer-Encoding: quoted-printable\r\n",
    "Content-Transfer-Encoding: base64\r\n",
    "\r\n",
    "--b\r\n",
    "--b--\r\n",
    "Content-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822; x@y\r\nStatus: 5.1.1\r\nAction: failed\r\n",
    "Content-Type: message/rfc822\r\n\r\nMessage-ID: <orig@bakery.example>\r\n\r\nHi\r\n",
    "Thanks, interested!\r\n",
    "<p>Hello =3D there</p>\r\n",
    "SGVsbG8=\r\n",
    "\u{0}\u{ff}",
];

/// One generated inbound message, read: never a panic, and what is read is well formed.
fn read_generated_mail(rng: &mut Rng) {
    let mut raw = rng.text(MAIL_PIECES, 24).into_bytes();
    rng.mutate(&mut raw);
    if let Some(message) = outreach_core::inbound::mail::read(&raw) {
        if let Some(from) = &message.from {
            assert_eq!(from, &from.to_lowercase());
        }
        for id in &message.refers_to {
            assert!(!id.contains(['<', '>']), "{id}");
        }
        let mut unique = message.refers_to.clone();
        unique.dedup();
        assert_eq!(unique.len(), message.refers_to.len());
    }
}

#[test]
fn the_inbound_mail_reader_never_panics_and_reports_well_formed_messages() {
    fuzz("inbound", read_generated_mail);
}

/// Found by the test above: a multipart that made mail-parser panic ("Invalid part ID, could not find multipart").
#[test]
fn a_multipart_the_mail_parser_panics_on_is_read_as_unparsable() {
    read_generated_mail(&mut Rng(9_098_214_162_668_095_299));
}

const TEMPLATE_PIECES: &[&str] = &[
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "<i>",
    "<br>",
    "<ul><li>",
    "</li></ul>",
    "<a href=\"",
    "\">",
    "</a>",
    "<a href=\"https://bakery.example/?a=1&amp;b=2\">menu</a>",
    "<img src=x onerror=alert(1)>",
    "<script>",
    "<svg/onload=x>",
    "{",
    "}",
    "|",
    "{Hi|Hello}",
    "{{businessName}}",
    "{{ city | there }}",
    "{{website}}",
    "{{category|x}}",
    "[business name]",
    "javascript:",
    "https://",
    "mailto:",
    "\"",
    "'",
    " onmouseover=",
    "=",
    "&#58;",
    "&quot;",
    "&lt;",
    "text ",
    "café ",
    "\n",
];

const VALUE_PIECES: &[&str] = &[
    "Café",
    " ",
    "<",
    ">",
    "\"",
    "'",
    "&",
    "{",
    "}",
    "|",
    "javascript:alert(1)",
    "https://ok.example",
    "<b onclick=x>",
    "&#106;avascript:",
    "www.cafe.example",
    "\u{0}",
    "\r\n",
    "[business name]",
    "{{city}}",
];

#[test]
fn rendered_templates_hold_only_safe_markup_whatever_the_data() {
    fuzz("templates", |rng| {
        let input = TemplateInput {
            name: Some("Fuzz".into()),
            subject: Some(rng.text(TEMPLATE_PIECES, 6)),
            body: Some(rng.text(TEMPLATE_PIECES, 30)),
            objective: None,
            tone: None,
            email_signature: None,
            variants: None,
        };
        let Ok(content) = input.validate() else {
            return;
        };
        let mut value = || Some(rng.text(VALUE_PIECES, 8));
        let recipient = Recipient {
            business_name: value(),
            city: value(),
            website: value(),
            category: value(),
            icebreaker: value(),
        };
        let rendered = render_html(&content.body, &recipient, "seed").text;
        assert_only_safe_markup(&rendered);
    });
}

const CSV_PIECES: &[&str] = &[
    "name",
    "email",
    "website",
    "phone",
    ",",
    "\n",
    "\r\n",
    "\"",
    "\"\"",
    "Café Ursula",
    "a@b.co",
    "bad@",
    "+358 9 1",
    "https://cafe.example",
    "=HYPERLINK(1)",
    "\u{feff}",
    " ",
    ";",
    "\u{0}",
];

#[test]
fn the_lead_csv_reader_never_panics_and_keeps_rows_within_their_limits() {
    fuzz("csv", |rng| {
        let mut file =
            format!("name,email,website,phone\n{}", rng.text(CSV_PIECES, 60)).into_bytes();
        if rng.below(3) == 0 {
            // Sometimes a long cell.
            file.extend(std::iter::repeat_n(b'x', rng.below(3 * CSV_CELL_LIMIT)));
        }
        rng.mutate(&mut file);
        let Ok(parsed) = parse_import(&file, "fuzz") else {
            return;
        };
        // Lines as a CSV reader counts them: ended by \n, \r or both.
        let lines = file
            .iter()
            .filter(|&&byte| byte == b'\n' || byte == b'\r')
            .count()
            + 2;
        assert!(parsed.rows.len() <= CSV_ROW_LIMIT);
        for (line, candidate) in &parsed.rows {
            assert!(
                *line >= 2 && *line <= lines,
                "line {line} of {lines}: {:?}",
                String::from_utf8_lossy(&file)
            );
            assert!(!candidate.name.trim().is_empty());
            for cell in [
                Some(&candidate.name),
                candidate.email.as_ref(),
                candidate.website.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                assert!(cell.chars().count() <= CSV_CELL_LIMIT);
            }
            if let Some(email) = &candidate.email {
                assert!(outreach_core::accounts::is_valid_email(email), "{email}");
            }
        }
        for error in &parsed.errors {
            assert!(
                error.line >= 2 && error.line <= lines,
                "line {} of {lines}",
                error.line
            );
        }
    });
}
