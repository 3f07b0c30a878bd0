//! SpamAssassin as the spam check's engine: `spamc -R` against a running `spamd`, or the `spamassassin` program
//! itself (`-L`: local rules only, no network tests; `-t`: the report appended), with the message on stdin and a
//! time bound. Both print the same "Content analysis details" table, read here.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;

use super::report::{ENGINE_SPAMASSASSIN, SpamCheck, SpamRule};

/// The program the setting names: `off` none; a path that program when it exists; `auto` `spamc` or
/// `spamassassin` on the PATH (spamc first: scoring through a running spamd takes no rule loading).
pub(super) fn program(setting: &str) -> Option<PathBuf> {
    match setting.trim() {
        "off" | "" => None,
        "auto" => ["spamc", "spamassassin"].into_iter().find_map(on_path),
        path => Some(PathBuf::from(path)).filter(|path| path.is_file()),
    }
}

/// A program's path on the PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Whether the program is SpamAssassin's client (`spamc`), which needs a running spamd.
fn is_client(program: &Path) -> bool {
    program
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with("spamc"))
}

/// Scores the raw message. `spamc` that finds no spamd falls through to `spamassassin` on the PATH.
pub(super) async fn score(
    program: &Path,
    raw: &str,
    timeout_seconds: u64,
) -> anyhow::Result<SpamCheck> {
    let bound = Duration::from_secs(timeout_seconds.max(1));
    if is_client(program) {
        // -x: fail rather than pass the message through unscored when spamd does not answer; -R: the report.
        match run(program, &["-x", "-R"], raw, bound).await {
            Ok(output) => return parse_report(&output),
            Err(error) => {
                let Some(fallback) = on_path("spamassassin") else {
                    return Err(error);
                };
                tracing::debug!(%error, "spamc found no spamd: scoring with spamassassin");
                return parse_report(&run(&fallback, &["-L", "-t", "-x"], raw, bound).await?);
            }
        }
    }
    parse_report(&run(program, &["-L", "-t", "-x"], raw, bound).await?)
}

/// Runs the program on the message and returns what it printed.
async fn run(program: &Path, args: &[&str], raw: &str, bound: Duration) -> anyhow::Result<String> {
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = raw.as_bytes().to_vec();
    let writer = tokio::spawn(async move {
        stdin.write_all(&input).await.ok();
        drop(stdin);
    });
    let output = tokio::time::timeout(bound, child.wait_with_output())
        .await
        .map_err(|_| anyhow::anyhow!("no answer in {} s", bound.as_secs()))??;
    writer.await.ok();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !text.contains("Content analysis details") {
        anyhow::bail!(
            "no report ({}): {}",
            output.status,
            text.chars().take(200).collect::<String>()
        );
    }
    Ok(text)
}

/// Reads SpamAssassin's report: the score from `Content analysis details: (7.0 points, 5.0 required)` and each
/// rule of the table under it (`pts rule name description`, a long description continued on indented lines).
pub fn parse_report(report: &str) -> anyhow::Result<SpamCheck> {
    let (_, details) = report
        .split_once("Content analysis details:")
        .ok_or_else(|| anyhow::anyhow!("no analysis in the report"))?;
    let score: f64 = details
        .trim_start()
        .strip_prefix('(')
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|points| points.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("no score in the report"))?;
    let mut rules: Vec<SpamRule> = Vec::new();
    let mut in_table = false;
    for line in details.lines() {
        if line.starts_with("----") {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if line.trim().is_empty() {
            break;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        match first.parse::<f64>() {
            Ok(points) if !line.starts_with("      ") => {
                let name = words.next().unwrap_or_default().to_string();
                let description = words.collect::<Vec<_>>().join(" ");
                rules.push(SpamRule {
                    // "-0.0" reads as -0: shown as 0.
                    points: points + 0.0,
                    name,
                    description,
                });
            }
            _ => {
                // A description's continuation; bracketed details (the URIs a rule saw) are left out.
                let more = line.trim();
                if let Some(rule) = rules.last_mut()
                    && !more.starts_with('[')
                {
                    rule.description.push(' ');
                    rule.description.push_str(more);
                }
            }
        }
    }
    Ok(SpamCheck {
        engine: ENGINE_SPAMASSASSIN.into(),
        // "-0.0" reads as -0: shown as 0.
        score: score + 0.0,
        rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_table_is_read_with_continued_descriptions() {
        let report = "Spam detection software...\n\nContent analysis details:   (7.0 points, 5.0 required)\n\n \
pts rule name              description\n---- ---------------------- --------------------------------------------------\n\
-0.0 NO_RECEIVED            Informational: message has no Received headers\n \
1.7 HTML_IMAGE_ONLY_04     BODY: HTML: images with 0-400 bytes of words\n \
1.0 SHORT_SHORTNER         Short body with little more than a link to a\n                            shortener\n\
                            [URIs: bit.ly]\n\nrest of the message";
        let check = parse_report(report).unwrap();
        assert_eq!(check.engine, "spamassassin");
        assert_eq!(check.score, 7.0);
        let names: Vec<&str> = check.rules.iter().map(|rule| rule.name.as_str()).collect();
        assert_eq!(
            names,
            ["NO_RECEIVED", "HTML_IMAGE_ONLY_04", "SHORT_SHORTNER"]
        );
        assert_eq!(check.rules[1].points, 1.7);
        assert_eq!(
            check.rules[2].description,
            "Short body with little more than a link to a shortener"
        );
        assert!(parse_report("no report").is_err());
    }

    #[test]
    fn the_setting_names_the_program() {
        assert_eq!(program("off"), None);
        assert_eq!(program("/nonexistent/spamassassin"), None);
        assert!(is_client(Path::new("/usr/bin/spamc")));
        assert!(!is_client(Path::new("/usr/bin/spamassassin")));
    }
}
