//! AI education files (A §5): which files are accepted, and the text extracted from them for the AI writer. A PDF is
//! read within bounds, since a small upload can unpack to gigabytes: every stream is first unpacked into a counter
//! under a budget, nesting deeper than a reader can follow is refused, pages are read one at a time under a cap on
//! their content, reading stops once the text limit is reached, and a reader that panics on a malformed file gives
//! an error. `Extractor` runs this off the async threads with a deadline, or in a child process with memory and
//! time limits (`outreach extract-text`), so nothing a file does reaches the server.

use std::io::{Cursor, Read};
use std::sync::LazyLock;

use crate::platform::faults;
use crate::platform::invalid::Invalid;
use crate::platform::shares::SlotTable;

/// At most 10 MB per file (A §9).
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Text kept per file: enough to teach the writer about a business, small enough for a prompt.
pub const MAX_TEXT_CHARS: usize = 50_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum EducationError {
    #[error("{0} is not a supported file type. Please upload PDF or text files only.")]
    UnsupportedType(String),
    #[error("{0} is larger than 10MB. Please choose a smaller file.")]
    TooLarge(String),
    #[error(
        "{0} is a legacy Word .doc file, which cannot be read. Please save it as .docx or PDF and upload it again."
    )]
    LegacyDoc(String),
    #[error("{0} could not be read: {1}")]
    Unreadable(String, String),
    #[error("{0} contains no text that could be extracted.")]
    NoText(String),
    #[error(
        "{0} is too large or too complex to read once unpacked. Please upload a shorter PDF, or save its text as a .txt file."
    )]
    TooComplex(String),
}

/// Everything a PDF's streams may unpack to, together.
const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;
/// Content (page and form streams) one page may have, and a whole document: a page's operators are held in memory
/// at about forty times their size.
const MAX_PAGE_CONTENT_BYTES: usize = 2 * 1024 * 1024;
const MAX_DOCUMENT_CONTENT_BYTES: usize = 8 * 1024 * 1024;
/// Arrays and dictionaries nested deeper than this are refused before any parser recurses into them.
const MAX_NESTING: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pdf,
    Text,
    Docx,
    Doc,
}

fn kind_of(name: &str) -> Option<Kind> {
    let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
    match extension.as_str() {
        "pdf" => Some(Kind::Pdf),
        "txt" | "text" | "md" => Some(Kind::Text),
        "docx" => Some(Kind::Docx),
        "doc" => Some(Kind::Doc),
        _ => None,
    }
}

/// The text of an uploaded file, after the type and size checks of A §5.
pub fn extract_text(name: &str, bytes: &[u8]) -> Result<String, EducationError> {
    let kind = kind_of(name).ok_or_else(|| EducationError::UnsupportedType(name.to_string()))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(EducationError::TooLarge(name.to_string()));
    }
    let unreadable = |error: Invalid| EducationError::Unreadable(name.to_string(), error.0);
    let text = match kind {
        Kind::Text => String::from_utf8_lossy(bytes).into_owned(),
        Kind::Pdf => pdf_text(bytes).map_err(|refusal| match refusal {
            PdfRefusal::TooComplex => EducationError::TooComplex(name.to_string()),
            PdfRefusal::Unreadable(reason) => unreadable(reason.into()),
        })?,
        Kind::Docx => docx_text(bytes).map_err(unreadable)?,
        Kind::Doc => return Err(EducationError::LegacyDoc(name.to_string())),
    };
    let text = normalize_whitespace(&text);
    if text.is_empty() {
        return Err(EducationError::NoText(name.to_string()));
    }
    Ok(text.chars().take(MAX_TEXT_CHARS).collect())
}

/// Files read at once by one process on its blocking threads.
const AT_ONCE: usize = 2;
/// How long reading one file may take, and what a child process reading it may use.
const DEADLINE: std::time::Duration = std::time::Duration::from_secs(30);
const CHILD_MEMORY_BYTES: libc::rlim_t = 1024 * 1024 * 1024;
const CHILD_CPU_SECONDS: libc::rlim_t = 30;

/// Where files are read.
#[derive(Debug, Clone, Default)]
pub enum Extractor {
    /// On this process's blocking threads, `AT_ONCE` files at a time, within `DEADLINE`: the async threads that
    /// answer requests are never the ones reading.
    #[default]
    InProcess,
    /// In a child process, `program extract-text NAME` (the `outreach` binary), with an address-space and a CPU
    /// limit and within `DEADLINE`: whatever a file does beyond the bounds ends the child, not the server.
    ChildProcess(std::path::PathBuf),
}

impl Extractor {
    /// The text of `user_id`'s uploaded file, as `extract_text` reads it, read where this extractor reads. Plain
    /// text is read at once; the other kinds take one of the process's `AT_ONCE` slots, and one user holds at most
    /// half of them, so another user's file never waits behind a pile of one user's.
    pub async fn extract(
        &self,
        user_id: i64,
        name: &str,
        bytes: Vec<u8>,
    ) -> Result<String, EducationError> {
        // Scopes: the process (one key), users.
        static SLOTS: LazyLock<SlotTable<2>> =
            LazyLock::new(|| SlotTable::new([AT_ONCE, AT_ONCE / 2]));
        if kind_of(name) == Some(Kind::Text) {
            return extract_text(name, &bytes);
        }
        let too_complex = || EducationError::TooComplex(name.to_string());
        let _slot = SLOTS.acquire([0, user_id], None).await;
        match self {
            Extractor::InProcess => {
                let owned = name.to_string();
                let reading = tokio::task::spawn_blocking(move || {
                    faults::point("extract", &owned);
                    extract_text(&owned, &bytes)
                });
                match tokio::time::timeout(DEADLINE, reading).await {
                    Ok(Ok(result)) => result,
                    _ => Err(too_complex()),
                }
            }
            Extractor::ChildProcess(program) => {
                match tokio::time::timeout(DEADLINE, in_child(program, name, &bytes)).await {
                    Ok(Some(result)) => result,
                    // Killed by a limit, crashed, or out of time.
                    _ => Err(too_complex()),
                }
            }
        }
    }
}

/// Runs `program extract-text NAME` with the file on its standard input; its answer is `extract_text`'s result as
/// JSON on standard output. None when it did not answer (killed on drop when the deadline passes).
async fn in_child(
    program: &std::path::Path,
    name: &str,
    bytes: &[u8],
) -> Option<Result<String, EducationError>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut command = tokio::process::Command::new(program);
    command
        .arg("extract-text")
        .arg(name)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true);
    // SAFETY: between fork and exec only async-signal-safe calls are made (setrlimit), on this child's own limits.
    unsafe {
        command.pre_exec(|| {
            for (resource, limit) in [
                (libc::RLIMIT_AS, CHILD_MEMORY_BYTES),
                (libc::RLIMIT_CPU, CHILD_CPU_SECONDS),
            ] {
                let limit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = command.spawn().ok()?;
    let mut stdin = child.stdin.take()?;
    let mut stdout = child.stdout.take()?;
    let (written, output) = tokio::join!(
        async {
            let written = stdin.write_all(bytes).await;
            drop(stdin);
            written
        },
        async {
            let mut output = Vec::new();
            stdout.read_to_end(&mut output).await.map(|_| output)
        }
    );
    written.ok()?;
    let output = output.ok()?;
    child.wait().await.ok().filter(|status| status.success())?;
    serde_json::from_slice(&output).ok()
}

/// `outreach extract-text NAME`: reads the file from standard input and writes `extract_text`'s result as JSON.
pub fn extract_text_command(name: &str) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    let result = extract_text(name, &bytes);
    let answer = serde_json::to_vec(&result).expect("text and errors serialise");
    std::io::stdout().write_all(&answer)
}

enum PdfRefusal {
    TooComplex,
    Unreadable(String),
}

/// A PDF's text, read within the bounds above.
fn pdf_text(bytes: &[u8]) -> Result<String, PdfRefusal> {
    check_unpacked_size_and_nesting(bytes)?;
    // The reader panics on some malformed files (a page without a MediaBox, contents that are not there).
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_pages(bytes)));
    read.unwrap_or_else(|_| {
        Err(PdfRefusal::Unreadable(
            "the PDF is damaged or not a PDF the reader understands".into(),
        ))
    })
}

fn read_pages(bytes: &[u8]) -> Result<String, PdfRefusal> {
    let unreadable = |error: &dyn std::fmt::Display| PdfRefusal::Unreadable(error.to_string());
    let document = pdf_extract::Document::load_mem(bytes).map_err(|error| unreadable(&error))?;
    if document.is_encrypted() {
        return Err(PdfRefusal::Unreadable(
            "the PDF is encrypted; save it without a password".into(),
        ));
    }
    // Form streams are drawn from pages; each one counts against the page cap as well.
    let largest_form = document
        .objects
        .values()
        .filter_map(|object| object.as_stream().ok())
        .filter(|stream| {
            stream
                .dict
                .get(b"Subtype")
                .and_then(|subtype| subtype.as_name())
                .is_ok_and(|name| name == b"Form")
        })
        .map(|stream| {
            stream
                .decompressed_content()
                .map_or(stream.content.len(), |c| c.len())
        })
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    let mut content_total = 0;
    for (number, page) in document.get_pages() {
        let content = document
            .get_page_content(page)
            .map_err(|error| unreadable(&error))?
            .len();
        content_total += content;
        if content + largest_form > MAX_PAGE_CONTENT_BYTES
            || content_total > MAX_DOCUMENT_CONTENT_BYTES
        {
            return Err(PdfRefusal::TooComplex);
        }
        let mut output = pdf_extract::PlainTextOutput::new(&mut text);
        pdf_extract::output_doc_page(&document, &mut output, number)
            .map_err(|error| unreadable(&error))?;
        if text.chars().count() >= MAX_TEXT_CHARS {
            break;
        }
    }
    Ok(text)
}

/// Unpacks every stream of the raw file into a counter (nothing is kept) under `MAX_UNPACKED_BYTES`, and measures
/// the nesting of arrays and dictionaries outside streams and strings.
fn check_unpacked_size_and_nesting(bytes: &[u8]) -> Result<(), PdfRefusal> {
    let mut unpacked = 0u64;
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'(' => at = skip_string(bytes, at),
            b'%' => {
                while at < bytes.len() && bytes[at] != b'\n' && bytes[at] != b'\r' {
                    at += 1;
                }
            }
            b'[' => depth += 1,
            b'<' if bytes.get(at + 1) == Some(&b'<') => {
                depth += 1;
                at += 1;
            }
            b']' => depth = depth.saturating_sub(1),
            b'>' if bytes.get(at + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                at += 1;
            }
            b's' if bytes[at..].starts_with(b"stream") => {
                let mut start = at + b"stream".len();
                if bytes.get(start) == Some(&b'\r') {
                    start += 1;
                }
                if bytes.get(start) == Some(&b'\n') {
                    start += 1;
                }
                let end = find(bytes, start, b"endstream").unwrap_or(bytes.len());
                let room = MAX_UNPACKED_BYTES - unpacked;
                unpacked += unpacked_size(&bytes[start..end], room).max((end - start) as u64);
                if unpacked > MAX_UNPACKED_BYTES {
                    return Err(PdfRefusal::TooComplex);
                }
                at = end + b"endstream".len();
                continue;
            }
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(PdfRefusal::TooComplex);
        }
        at += 1;
    }
    Ok(())
}

/// How many bytes `data` unpacks to with zlib (the FlateDecode filter), counting up to `room` + 1; 0 when it is
/// not zlib data.
fn unpacked_size(data: &[u8], room: u64) -> u64 {
    use std::io::Read;
    let mut decoder = flate2::read::ZlibDecoder::new(data).take(room + 1);
    std::io::copy(&mut decoder, &mut std::io::sink()).unwrap_or(0)
}

/// The position after the literal string starting at `at` (nested parentheses and escapes respected).
fn skip_string(bytes: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 1,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
        at += 1;
    }
    at
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|found| from + found)
}

/// The paragraphs of `word/document.xml` inside a .docx archive.
fn docx_text(bytes: &[u8]) -> Result<String, Invalid> {
    let mut archive =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|error| error.to_string())?;
    let mut xml = String::new();
    archive
        .by_name("word/document.xml")
        .map_err(|_| "not a Word document (word/document.xml is missing)".to_string())?
        .take(64 * 1024 * 1024)
        .read_to_string(&mut xml)
        .map_err(|error| error.to_string())?;
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut text = String::new();
    let mut in_text = false;
    loop {
        match reader.read_event().map_err(|error| error.to_string())? {
            quick_xml::events::Event::Start(tag) if tag.name().into_inner() == "w:t" => {
                in_text = true
            }
            quick_xml::events::Event::End(tag) if tag.name().into_inner() == "w:t" => {
                in_text = false
            }
            quick_xml::events::Event::End(tag) if tag.name().into_inner() == "w:p" => {
                text.push('\n')
            }
            quick_xml::events::Event::Empty(tag)
                if matches!(tag.name().into_inner(), "w:tab" | "w:br") =>
            {
                text.push(' ')
            }
            quick_xml::events::Event::Text(content) if in_text => {
                text.push_str(&content.into_inner());
            }
            quick_xml::events::Event::GeneralRef(reference) if in_text => {
                text.push_str(match reference.into_inner().as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                });
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    Ok(text)
}

/// Collapses runs of spaces and blank lines that extraction leaves behind.
fn normalize_whitespace(text: &str) -> String {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(any(test, feature = "testing"))]
pub mod fixtures {
    //! Real files for tests: a one-page PDF and a .docx, built byte by byte.
    use std::io::Write;

    /// A valid PDF 1.4 with one page showing each line of `lines` in Helvetica.
    pub fn pdf(lines: &[&str]) -> Vec<u8> {
        let mut content = String::from("BT /F1 12 Tf 72 720 Td 14 TL\n");
        for line in lines {
            let escaped = line
                .replace('\\', "\\\\")
                .replace('(', "\\(")
                .replace(')', "\\)");
            content.push_str(&format!("({escaped}) Tj T*\n"));
        }
        content.push_str("ET");
        one_page(MEDIA_BOX, &stream("", content.as_bytes()))
    }

    const MEDIA_BOX: &str = "/MediaBox [0 0 612 792]";

    /// A stream object's text: `dictionary` entries, the length, and the data.
    fn stream(dictionary: &str, data: &[u8]) -> Vec<u8> {
        let mut object =
            format!("<< {dictionary} /Length {} >>\nstream\n", data.len()).into_bytes();
        object.extend_from_slice(data);
        object.extend_from_slice(b"\nendstream");
        object
    }

    /// A one-page document whose page has `page_entries` and whose content stream is `content` (object 4).
    fn one_page(page_entries: &str, content: &[u8]) -> Vec<u8> {
        document(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            format!("<< /Type /Page /Parent 2 0 R {page_entries} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>").into_bytes(),
            content.to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_vec(),
        ])
    }

    /// A PDF of these objects (numbered from 1, the first the catalog) with its cross-reference table.
    fn document(objects: &[Vec<u8>]) -> Vec<u8> {
        let mut pdf = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (index, object) in objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend_from_slice(format!("{} 0 obj\n", index + 1).as_bytes());
            pdf.extend_from_slice(object);
            pdf.extend_from_slice(b"\nendobj\n");
        }
        let xref = pdf.len();
        pdf.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for offset in offsets {
            pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
        }
        pdf.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        pdf
    }

    /// A small file whose one content stream unpacks to `megabytes` of path operators (`0 0 m `): a decompression
    /// bomb for the extractor.
    pub fn pdf_bomb(megabytes: usize) -> Vec<u8> {
        use std::io::Write;
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        let chunk = "0 0 m ".repeat(1024 * 1024 / 6);
        for _ in 0..megabytes {
            encoder.write_all(chunk.as_bytes()).expect("in memory");
        }
        let packed = encoder.finish().expect("in memory");
        one_page(MEDIA_BOX, &stream("/Filter /FlateDecode", &packed))
    }

    /// A page without the MediaBox every page must have.
    pub fn pdf_without_media_box() -> Vec<u8> {
        one_page("", &stream("", b"BT /F1 12 Tf (Hi) Tj ET"))
    }

    /// A page whose contents name an object the file does not have.
    pub fn pdf_with_missing_contents() -> Vec<u8> {
        document(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 9 0 R >>".to_vec(),
        ])
    }

    /// An object nested `depth` arrays deep (a parser that recurses runs out of stack).
    pub fn pdf_nested(depth: usize) -> Vec<u8> {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let mut pdf = one_page(MEDIA_BOX, &stream("", b"BT ET"));
        let tail = pdf.split_off(pdf.windows(4).position(|w| w == b"xref").expect("a table"));
        pdf.extend_from_slice(format!("6 0 obj\n{nested}\nendobj\n").as_bytes());
        pdf.extend_from_slice(&tail);
        pdf
    }

    /// A minimal .docx whose body has one paragraph per entry of `paragraphs`.
    pub fn docx(paragraphs: &[&str]) -> Vec<u8> {
        let body: String = paragraphs
            .iter()
            .map(|text| {
                let escaped = text
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;");
                format!("<w:p><w:r><w:t xml:space=\"preserve\">{escaped}</w:t></w:r></w:p>")
            })
            .collect();
        let document = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\
             <w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}</w:body></w:document>"
        );
        let parts = [
            ("[Content_Types].xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>".to_string()),
            ("_rels/.rels", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/></Relationships>".to_string()),
            ("word/document.xml", document),
        ];
        let mut archive = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, text) in parts {
            archive.start_file(name, options).expect("zip entry");
            archive.write_all(text.as_bytes()).expect("zip write");
        }
        archive.finish().expect("zip finishes").into_inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_docx_and_text_are_read() {
        let pdf = extract_text(
            "About us.PDF",
            &fixtures::pdf(&["Nordic Bakery (since 1989)", "Sourdough for cafes"]),
        )
        .unwrap();
        assert!(
            pdf.contains("Nordic Bakery (since 1989)") && pdf.contains("Sourdough for cafes"),
            "{pdf}"
        );
        let docx = extract_text(
            "offer.docx",
            &fixtures::docx(&["We deliver daily.", "Prices & terms <2026>"]),
        )
        .unwrap();
        assert_eq!(docx, "We deliver daily.\nPrices & terms <2026>");
        assert_eq!(
            extract_text("notes.txt", b"  plain   text \n\n\n more ").unwrap(),
            "plain text\nmore"
        );
    }

    #[test]
    fn bombs_and_broken_files_are_refused_without_running_away_or_panicking() {
        assert!(matches!(
            extract_text("bomb.pdf", &fixtures::pdf_bomb(20)),
            Err(EducationError::TooComplex(_))
        ));
        assert!(matches!(
            extract_text("deep.pdf", &fixtures::pdf_nested(100_000)),
            Err(EducationError::TooComplex(_))
        ));
        for broken in [
            fixtures::pdf_without_media_box(),
            fixtures::pdf_with_missing_contents(),
        ] {
            assert!(
                matches!(
                    extract_text("broken.pdf", &broken),
                    Err(EducationError::Unreadable(..) | EducationError::NoText(_))
                ),
                "{}",
                String::from_utf8_lossy(&broken)
            );
        }
        // A real document that is not small still reads.
        let lines: Vec<String> = (0..2_000)
            .map(|n| format!("Line {n} of our price list"))
            .collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let text = extract_text("prices.pdf", &fixtures::pdf(&lines)).unwrap();
        assert!(
            text.contains("Line 1999 of our price list") || text.chars().count() >= MAX_TEXT_CHARS
        );
    }

    #[test]
    fn refusals_use_the_spec_texts() {
        assert_eq!(
            extract_text("logo.png", b"x").unwrap_err().to_string(),
            "logo.png is not a supported file type. Please upload PDF or text files only."
        );
        assert_eq!(
            extract_text("big.pdf", &vec![0u8; MAX_FILE_BYTES + 1])
                .unwrap_err()
                .to_string(),
            "big.pdf is larger than 10MB. Please choose a smaller file."
        );
        assert!(matches!(
            extract_text("old.doc", b"x"),
            Err(EducationError::LegacyDoc(_))
        ));
        assert!(matches!(
            extract_text("broken.docx", b"not a zip"),
            Err(EducationError::Unreadable(..))
        ));
        assert!(matches!(
            extract_text("empty.txt", b"  \n "),
            Err(EducationError::NoText(_))
        ));
    }
}
