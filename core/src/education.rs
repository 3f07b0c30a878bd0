//! AI education files (A §5): which files are accepted, and the text extracted from them for the AI writer.

use std::io::{Cursor, Read};

/// At most 10 MB per file (A §9).
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Text kept per file: enough to teach the writer about a business, small enough for a prompt.
pub const MAX_TEXT_CHARS: usize = 50_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
}

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
    let unreadable = |error: String| EducationError::Unreadable(name.to_string(), error);
    let text = match kind {
        Kind::Text => String::from_utf8_lossy(bytes).into_owned(),
        Kind::Pdf => pdf_extract::extract_text_from_mem(bytes)
            .map_err(|error| unreadable(error.to_string()))?,
        Kind::Docx => docx_text(bytes).map_err(unreadable)?,
        Kind::Doc => return Err(EducationError::LegacyDoc(name.to_string())),
    };
    let text = normalize_whitespace(&text);
    if text.is_empty() {
        return Err(EducationError::NoText(name.to_string()));
    }
    Ok(text.chars().take(MAX_TEXT_CHARS).collect())
}

/// The paragraphs of `word/document.xml` inside a .docx archive.
fn docx_text(bytes: &[u8]) -> Result<String, String> {
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
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
            format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
        ];
        let mut pdf = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (index, object) in objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", index + 1).as_bytes());
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
