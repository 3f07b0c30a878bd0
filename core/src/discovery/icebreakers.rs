//! A business's icebreaker as stored and as the API shows it: written when its website is read (the facts of the
//! pages the crawl fetched, the line from them), rewritten when the user asks, edited or dropped by the user, and
//! given to personalisation in the campaign's language.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::discovery::DiscoveryStore;
use crate::discovery::facts::{Page, read_facts};
use crate::on_db;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::writing::ai::writer::Writer;
use crate::writing::icebreaker::{self, Fact, Line, Origin};

/// A line as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct IcebreakerRow {
    pub business_id: i64,
    pub facts: String,
    pub sources: String,
    pub text: String,
    pub language: String,
    pub origin: Origin,
    pub written_at: i64,
}

/// A business's line (issue 82: `{text, language, facts}`), with where it came from and every fact the site gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IcebreakerView {
    /// The line; empty when the user dropped it.
    pub text: String,
    pub language: String,
    pub origin: Origin,
    /// The facts the line states, each with its page and sentence.
    pub facts: Vec<Fact>,
    /// Every fact the site gave.
    pub all_facts: Vec<Fact>,
    pub written_at: i64,
}

impl IcebreakerRow {
    pub fn view(&self) -> IcebreakerView {
        IcebreakerView {
            text: self.text.clone(),
            language: self.language.clone(),
            origin: self.origin,
            facts: serde_json::from_str(&self.sources).unwrap_or_default(),
            all_facts: serde_json::from_str(&self.facts).unwrap_or_default(),
            written_at: self.written_at,
        }
    }
}

/// The pages' facts and the line from them, stored whole; without facts the stored line goes. A user's own line
/// stays unless `rewrite`. Returns the line written, if any.
#[allow(clippy::too_many_arguments)]
pub async fn record(
    db: &crate::platform::db::Db,
    writer: &Writer,
    business_id: i64,
    business_name: &str,
    pages: &[Page],
    language: Option<&str>,
    rewrite: bool,
    (today, now): (NaiveDate, i64),
) -> anyhow::Result<Option<Line>> {
    let facts = read_facts(writer, pages, business_name, today).await;
    let language = icebreaker::language_or_default(
        language.or_else(|| pages.first().and_then(|page| page.language.as_deref())),
    );
    let Some(line) =
        icebreaker::model::write_line(writer, &facts, language, business_name, today).await
    else {
        db.discovery()
            .clear_icebreaker(business_id, rewrite)
            .await?;
        return Ok(None);
    };
    db.discovery()
        .save_icebreaker(
            &IcebreakerRow {
                business_id,
                facts: serde_json::to_string(&facts)?,
                sources: serde_json::to_string(&line.sources)?,
                text: line.text.clone(),
                language: line.language.clone(),
                origin: line.origin,
                written_at: now,
            },
            rewrite,
        )
        .await?;
    Ok(Some(line))
}

/// The line to send in `language`: a written line in another language is written again offline from its facts
/// (the templates say the same thing in each); the user's own text is sent as they wrote it.
pub fn in_language(
    row: &IcebreakerRow,
    language: Option<&str>,
    today: NaiveDate,
) -> Option<String> {
    let wanted = language.map(|code| icebreaker::language_or_default(Some(code)));
    match row.origin {
        Origin::Dropped => None,
        Origin::Edited => Some(row.text.clone()).filter(|text| !text.trim().is_empty()),
        Origin::Offline | Origin::Model => match wanted {
            Some(wanted) if wanted != row.language => {
                let facts: Vec<Fact> = serde_json::from_str(&row.facts).unwrap_or_default();
                icebreaker::offline_line(&facts, wanted, today).map(|line| line.text)
            }
            _ => Some(row.text.clone()),
        },
    }
}

impl DiscoveryStore<'_> {
    pub async fn save_icebreaker(&self, row: &IcebreakerRow, rewrite: bool) -> StoreResult<()> {
        let sql = ICEBREAKER_SAVE.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(row.business_id).bind(&row.facts).bind(&row.sources)
            .bind(&row.text).bind(&row.language).bind(row.origin).bind(row.written_at).bind(rewrite)
            .execute(pool).await.map(|_| ()))
    }

    pub async fn clear_icebreaker(&self, business_id: i64, rewrite: bool) -> StoreResult<()> {
        let sql = ICEBREAKER_CLEAR.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(business_id).bind(rewrite).execute(pool).await.map(|_| ()))
    }

    /// The line of one of the user's businesses.
    pub async fn icebreaker(
        &self,
        business_id: i64,
        user_id: i64,
    ) -> StoreResult<Option<IcebreakerRow>> {
        let sql = ICEBREAKER_FIND_OWNED.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(business_id).bind(user_id).fetch_optional(pool).await)
    }

    /// The user's own line (empty: dropped) for a business whose ownership the caller checked.
    pub async fn edit_icebreaker(
        &self,
        business_id: i64,
        text: &str,
        language: &str,
        now: i64,
    ) -> StoreResult<()> {
        let origin = if text.trim().is_empty() {
            Origin::Dropped
        } else {
            Origin::Edited
        };
        let sql = ICEBREAKER_EDIT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(business_id).bind(text).bind(language).bind(origin)
            .bind(now).execute(pool).await.map(|_| ()))
    }
}
