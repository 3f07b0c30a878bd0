//! Lead imports (A §7 Businesses import): a CSV file of businesses read into candidates, each skipped row with its
//! line and reason, within the cell and row limits.

use serde::Serialize;

use super::businesses::Candidate;
use crate::platform::invalid::Invalid;
use crate::platform::limits::{CSV_CELL_LIMIT, CSV_ROW_LIMIT};

/// The columns a lead CSV may name (any subset, any order; `name` is required).
pub const IMPORT_COLUMNS: &[&str] = &[
    "name", "email", "website", "phone", "address", "city", "category",
];

/// Line breaks in `bytes[from..to]`: `\r\n`, `\n` or `\r` each end a line.
fn line_breaks(bytes: &[u8], from: usize, to: usize) -> usize {
    (from..to)
        .filter(|&at| {
            bytes[at] == b'\n' || (bytes[at] == b'\r' && bytes.get(at + 1) != Some(&b'\n'))
        })
        .count()
}

/// A cell without control characters (a NUL would reach a subject, and a line break a header): line breaks and
/// tabs become one space, the others go; trimmed.
fn without_control_characters(cell: &str) -> String {
    let mut clean = String::with_capacity(cell.len());
    for c in cell.chars() {
        match c {
            '\t' | '\n' | '\r' => {
                if !clean.ends_with(' ') {
                    clean.push(' ');
                }
            }
            c if c.is_control() => {}
            c => clean.push(c),
        }
    }
    clean.trim().to_string()
}

/// A row of an import that was skipped, with its line and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RowError {
    pub line: usize,
    pub message: String,
}

/// A lead file's good rows (with their line), and its bad rows' errors.
#[derive(Debug, Clone, Default)]
pub struct ImportFile {
    pub rows: Vec<(usize, Candidate)>,
    pub errors: Vec<RowError>,
}

/// Reads a lead CSV (header row first). An unreadable file is refused whole; bad rows are reported with their line.
pub fn parse_import(bytes: &[u8], query: &str) -> Result<ImportFile, Invalid> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        "The file is not UTF-8 text. Save it as CSV (UTF-8) and try again.".to_string()
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|error| format!("The file is not a readable CSV: {error}"))?
        .iter()
        .map(|header| header.trim().trim_start_matches('\u{feff}').to_lowercase())
        .collect();
    if !headers.iter().any(|header| header == "name") {
        return Err(Invalid(format!(
            "The header row must name a name column (and any of {})",
            IMPORT_COLUMNS.join(", ")
        )));
    }
    let column = |name: &str| headers.iter().position(|header| header == name);
    let mut file = ImportFile::default();
    // The line a row starts on, counted from its byte offset (a quoted cell may span lines; the csv crate's own line
    // numbers come out one short after CRLF line ends).
    let mut counted = (0usize, 1usize);
    for (index, record) in reader.records().enumerate() {
        let start = match &record {
            Ok(record) => record.position().map(|at| at.byte()),
            Err(error) => error.position().map(|at| at.byte()),
        };
        let line = match start {
            Some(byte) => {
                let bytes = text.as_bytes();
                let mut byte = (byte as usize).min(bytes.len());
                // After `\r\n` the reader starts the next row at the `\n`.
                if byte > 0 && bytes.get(byte) == Some(&b'\n') && bytes[byte - 1] == b'\r' {
                    byte += 1;
                }
                counted = (byte, counted.1 + line_breaks(bytes, counted.0, byte));
                counted.1
            }
            None => index + 2,
        };
        if index >= CSV_ROW_LIMIT {
            return Err(Invalid(format!(
                "The file has more than {CSV_ROW_LIMIT} rows; split it and import the parts"
            )));
        }
        let record = match record {
            Ok(record) => record,
            Err(error) => {
                file.errors.push(RowError {
                    line,
                    message: format!("unreadable row: {error}"),
                });
                continue;
            }
        };
        let field = |name: &str| {
            column(name)
                .and_then(|at| record.get(at))
                .map(without_control_characters)
                .filter(|value| !value.is_empty())
        };
        if record
            .iter()
            .any(|cell| cell.len() > CSV_CELL_LIMIT && cell.chars().count() > CSV_CELL_LIMIT)
        {
            file.errors.push(RowError {
                line,
                message: format!("a field is longer than {CSV_CELL_LIMIT} characters"),
            });
            continue;
        }
        let Some(name) = field("name") else {
            file.errors.push(RowError {
                line,
                message: "name is required".into(),
            });
            continue;
        };
        let email = field("email");
        if email
            .as_deref()
            .is_some_and(|email| !crate::accounts::is_valid_email(email))
        {
            file.errors.push(RowError {
                line,
                message: format!("{} is not a valid email address", email.unwrap_or_default()),
            });
            continue;
        }
        file.rows.push((
            line,
            Candidate {
                name,
                address: field("address"),
                city: field("city"),
                phone: field("phone"),
                email: email.map(|email| email.to_lowercase()),
                website: field("website"),
                category: field("category"),
                provider: "import".to_string(),
                query: query.to_string(),
                ..Candidate::default()
            },
        ));
    }
    Ok(file)
}
