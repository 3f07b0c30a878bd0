//! Businesses a user found, with provenance and de-duplication keys (A §7 Businesses), and how searches and
//! imports store them.

use std::collections::HashMap;

use serde::Serialize;

use crate::campaigns::personalise::Recipient;
use crate::discovery::DiscoveryStore;
use crate::discovery::enrich::SocialProfile;
use crate::discovery::search::{LoggedBusiness, NewSearchLog, RecordedChunk, SearchStatus};
use crate::platform::clock::Timestamp;
use crate::platform::db::BeginWrite;
use crate::platform::db::json_list;
use crate::platform::db::{Db, StoreResult, fetch_json_rows};
use crate::platform::dns::Verdict;
use crate::platform::queries::*;
use crate::{on_db, on_writer};

/// A business as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct BusinessRow {
    pub id: i64,
    pub name: String,
    pub address: Option<String>,
    pub city: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub category: Option<String>,
    pub rating: Option<f64>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub social_media: String,
    pub provider: String,
    pub provider_place_id: Option<String>,
    pub query: Option<String>,
    pub source_url: Option<String>,
    pub found_at: i64,
    pub email_status: String,
    pub email_source: Option<String>,
    pub enriched_at: Option<i64>,
    pub email_verdict: Option<Verdict>,
    /// Why the last enrichment could not read the website.
    pub website_error: Option<String>,
}

/// A recipient's row: id, name, city, website, category, and its icebreaker's text, origin, language and facts.
type RecipientRow = (
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// What reading a business's website found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enrichment<'a> {
    pub email: Option<&'a str>,
    /// The page the address was on.
    pub source: Option<&'a str>,
    /// The address's MX verdict (`crate::platform::dns::Verdict`).
    pub verdict: Option<&'a str>,
    /// `found` or `not_found`.
    pub status: &'a str,
    /// JSON list of social profiles.
    pub social_media: &'a str,
    /// Why the website could not be read (none: it was read, or there is none).
    pub website_error: Option<&'a str>,
}

/// What the enrichment job needs of a business.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EnrichTarget {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub website: Option<String>,
    pub email: Option<String>,
    pub enriched_at: Option<i64>,
}

/// A business as the API answers (A §3 Business), with where it was found.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BusinessView {
    pub id: i64,
    pub name: String,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub rating: Option<f64>,
    pub category: Option<String>,
    pub location: Location,
    pub social_media: Vec<SocialProfile>,
    /// `pending` while its website is read, then `found`, `not_found`, or `listed` when the source gave one.
    pub email_status: String,
    /// The page the address was found on.
    pub email_source: Option<String>,
    /// The address's MX verdict.
    pub email_verdict: Option<Verdict>,
    /// Why the website could not be read when the address was looked for (none: it was read, or there is none).
    pub website_error: Option<String>,
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Location {
    pub address: Option<String>,
    pub city: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
}

/// Where a business was found: the provider, its query and page, and when.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    pub provider: String,
    pub query: Option<String>,
    pub source_url: Option<String>,
    pub found_at: Timestamp,
}

impl BusinessRow {
    /// The business as the API answers.
    pub fn view(&self) -> BusinessView {
        BusinessView {
            id: self.id,
            name: self.name.clone(),
            address: self.address.clone(),
            phone: self.phone.clone(),
            email: self.email.clone(),
            website: self.website.clone(),
            rating: self.rating,
            category: self.category.clone(),
            location: Location {
                address: self.address.clone(),
                city: self.city.clone(),
                latitude: self.latitude,
                longitude: self.longitude,
            },
            social_media: serde_json::from_str(&self.social_media).unwrap_or_default(),
            email_status: self.email_status.clone(),
            email_source: self.email_source.clone(),
            email_verdict: self.email_verdict,
            website_error: self.website_error.clone(),
            provenance: Provenance {
                provider: self.provider.clone(),
                query: self.query.clone(),
                source_url: self.source_url.clone(),
                found_at: Timestamp(self.found_at),
            },
        }
    }
}

/// A business a provider found, before de-duplication.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Candidate {
    pub name: String,
    pub address: Option<String>,
    pub city: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub category: Option<String>,
    pub rating: Option<f64>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub provider: String,
    pub provider_place_id: Option<String>,
    pub query: String,
    pub source_url: Option<String>,
}

/// The de-duplication keys of a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DedupeKeys {
    pub website_domain: Option<String>,
    pub phone_e164: Option<String>,
    pub name_address: String,
}

impl Candidate {
    /// Whether two candidates are one business: the same provider place, or the same website domain, phone or name
    /// and address unless both have an email address and the addresses differ. `businesses/find_duplicate.sql` is the
    /// same rule against stored businesses.
    pub fn same_business(&self, other: &Candidate) -> bool {
        if self.provider_place_id.is_some() && self.provider_place_id == other.provider_place_id {
            return true;
        }
        let (mine, theirs) = (self.keys(), other.keys());
        let shares_a_key = (mine.website_domain.is_some()
            && mine.website_domain == theirs.website_domain)
            || (mine.phone_e164.is_some() && mine.phone_e164 == theirs.phone_e164)
            || mine.name_address == theirs.name_address;
        let compatible = match (&self.email, &other.email) {
            (Some(mine), Some(theirs)) => mine.eq_ignore_ascii_case(theirs),
            _ => true,
        };
        shares_a_key && compatible
    }

    pub fn keys(&self) -> DedupeKeys {
        DedupeKeys {
            website_domain: self.website.as_deref().and_then(website_domain),
            phone_e164: self.phone.as_deref().and_then(phone_e164),
            name_address: name_address_key(&self.name, self.address.as_deref()),
        }
    }
}

/// `https://www.Example.com/contact` → `example.com`.
pub fn website_domain(website: &str) -> Option<String> {
    let text = website.trim();
    let with_scheme = if text.contains("://") {
        text.to_string()
    } else {
        format!("https://{text}")
    };
    let host = url::Url::parse(&with_scheme)
        .ok()?
        .host_str()?
        .to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    host.contains('.').then_some(host)
}

/// A phone number in E.164 when it carries its country code (`+358 9 123`, `00358 9 123`); other numbers keep
/// their digits, which still match the same number written with other spacing.
pub fn phone_e164(phone: &str) -> Option<String> {
    let first = phone.split([';', ',']).next()?.trim();
    let digits: String = first.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < 6 {
        return None;
    }
    if first.starts_with('+') {
        Some(format!("+{digits}"))
    } else if let Some(international) = digits.strip_prefix("00") {
        Some(format!("+{international}"))
    } else {
        Some(digits)
    }
}

/// Lowercase letters and digits of the name and the address.
pub fn name_address_key(name: &str, address: Option<&str>) -> String {
    let fold = |text: &str| {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    format!("{}|{}", fold(name), fold(address.unwrap_or_default()))
}

/// The user's business that `$candidate` duplicates (provider place, website domain, phone, name and address), on
/// `$executor`.
macro_rules! find_duplicate {
    ($db:expr, $executor:expr, $user_id:expr, $candidate:expr) => {
        async {
            let keys = $candidate.keys();
            sqlx::query_scalar::<_, i64>(BUSINESS_FIND_DUPLICATE.sql($db))
                .bind($user_id)
                .bind(&$candidate.provider_place_id)
                .bind(&keys.website_domain)
                .bind(&keys.phone_e164)
                .bind(&keys.name_address)
                .bind(&$candidate.email)
                .fetch_optional($executor)
                .await
        }
    };
}

/// Stores `$candidate` for the user unless it duplicates one of their businesses, on `$executor` (a pool or a
/// transaction, used twice); evaluates to `(id, new)`.
macro_rules! add_business {
    ($db:expr, $executor:expr, $user_id:expr, $candidate:expr, $now:expr) => {
        async {
            if let Some(id) = find_duplicate!($db, $executor, $user_id, $candidate).await? {
                return Ok::<_, sqlx::Error>((id, false));
            }
            let keys = $candidate.keys();
            // "pending" is for addresses an enrichment job is looking for; none is queued here.
            let email_status = if $candidate.email.is_some() {
                "found"
            } else {
                "none"
            };
            let id: i64 = sqlx::query_scalar(BUSINESS_INSERT.sql($db))
                .bind($user_id)
                .bind(&$candidate.name)
                .bind(&$candidate.address)
                .bind(&$candidate.city)
                .bind(&$candidate.phone)
                .bind(&$candidate.email)
                .bind(&$candidate.website)
                .bind(&$candidate.category)
                .bind($candidate.rating)
                .bind($candidate.latitude)
                .bind($candidate.longitude)
                .bind(&$candidate.provider)
                .bind(&$candidate.provider_place_id)
                .bind(&$candidate.query)
                .bind(&$candidate.source_url)
                .bind($now)
                .bind(&keys.website_domain)
                .bind(&keys.phone_e164)
                .bind(&keys.name_address)
                .bind(email_status)
                .fetch_one($executor)
                .await?;
            Ok((id, true))
        }
    };
}

impl DiscoveryStore<'_> {
    /// Stores a candidate for the user unless it duplicates one of their businesses (holding the user's businesses
    /// meanwhile, see `businesses/hold_user`); returns the business id either way and whether it is new.
    pub async fn add_business(
        &self,
        user_id: i64,
        candidate: &Candidate,
        now: i64,
    ) -> StoreResult<(i64, bool)> {
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            sqlx::query(BUSINESS_HOLD_USER.sql(self)).bind(user_id).execute(&mut *tx).await?;
            let added = add_business!(self, &mut *tx, user_id, candidate, now).await?;
            tx.commit().await?;
            Ok(added)
        })
    }

    /// The user's business a candidate duplicates, if any (nothing is written).
    pub async fn find_duplicate_business(
        &self,
        user_id: i64,
        candidate: &Candidate,
    ) -> StoreResult<Option<i64>> {
        on_db!(self, pool => find_duplicate!(self, pool, user_id, candidate).await)
    }

    /// A search chunk's findings in one transaction: its businesses (de-duplicated against the user's), their
    /// places in the search after `found_before`, the chunk's log row (with what was new to the search) and the
    /// search's chunk count and status (`failure`: the reason, when this chunk ends the search as failed, written
    /// with it so nobody sees the chunk without the failure). None, with nothing written, when the search stopped
    /// running meanwhile or
    /// this chunk was recorded already; a failure anywhere writes nothing either, so a retried chunk starts clean.
    pub async fn record_search_chunk(
        &self,
        log: &NewSearchLog<'_>,
        candidates: &[&Candidate],
        found_before: i32,
        status: SearchStatus,
        failure: Option<&str>,
        now: i64,
    ) -> StoreResult<Option<RecordedChunk>> {
        let search = log.search;
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            let running = sqlx::query(SEARCH_HOLD_RUNNING.sql(self)).bind(search.id).bind(log.chunk_number - 1)
                .execute(&mut *tx).await?
                .rows_affected() == 1;
            if !running {
                return Ok(None);
            }
            sqlx::query(BUSINESS_HOLD_USER.sql(self)).bind(search.user_id).execute(&mut *tx).await?;
            let mut recorded = RecordedChunk { found: found_before, ..RecordedChunk::default() };
            let mut business_data = Vec::new();
            for candidate in candidates {
                let (id, new) = add_business!(self, &mut *tx, search.user_id, candidate, now).await?;
                if new && candidate.website.is_some() {
                    // Without an address it waits for its lookup from the chunk's commit on, so a crash before the
                    // lookup is queued leaves it to be found and resumed (discovery::resume). With one, the site is
                    // still read for its icebreaker's facts and its social profiles.
                    sqlx::query(BUSINESS_MARK_PENDING.sql(self)).bind(id).execute(&mut *tx).await?;
                    recorded.to_enrich.push(id);
                }
                let linked = sqlx::query(SEARCH_ADD_RESULT.sql(self)).bind(search.id).bind(id)
                    .bind(recorded.found + 1).execute(&mut *tx).await?.rows_affected() == 1;
                if linked {
                    recorded.found += 1;
                    recorded.added += 1;
                    business_data.push(LoggedBusiness { name: Some(candidate.name.clone()), email: candidate.email.clone() });
                }
            }
            sqlx::query(SEARCH_LOG_INSERT.sql(self))
                .bind(search.id)
                .bind(search.user_id)
                .bind(&search.search_term)
                .bind(&search.search_type)
                .bind(log.chunk_number)
                .bind(log.max_results)
                .bind(recorded.added as i32)
                .bind(&log.excluded_items)
                .bind(serde_json::to_string(&business_data).unwrap_or_default())
                .bind(&log.query)
                .bind(&log.raw_response)
                .bind(now)
                .execute(&mut *tx).await?;
            let moved = sqlx::query(SEARCH_CHUNK_DONE.sql(self)).bind(search.id).bind(recorded.found).bind(status)
                .bind((status != SearchStatus::Running).then_some(now)).bind(failure).execute(&mut *tx).await?.rows_affected() == 1;
            if !moved {
                return Ok(None);
            }
            tx.commit().await?;
            Ok(Some(recorded))
        })
    }

    pub async fn list_businesses(&self, user_id: i64, limit: i64) -> StoreResult<Vec<BusinessRow>> {
        let sql = BUSINESS_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await)
    }

    pub async fn businesses_of_search(&self, search_id: i64) -> StoreResult<Vec<BusinessRow>> {
        let sql = BUSINESS_OF_SEARCH.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(search_id).fetch_all(pool).await)
    }

    pub async fn find_business(&self, id: i64, user_id: i64) -> StoreResult<Option<BusinessRow>> {
        let sql = BUSINESS_FIND_OWNED.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// The owner's businesses among `ids`, in the order of `ids` (another owner's and unknown ids are left out).
    pub async fn find_businesses(
        &self,
        ids: &[i64],
        user_id: i64,
    ) -> StoreResult<Vec<BusinessRow>> {
        let sql = BUSINESS_FIND_OWNED_MANY.sql(self);
        let list = json_list(ids);
        let rows: Vec<BusinessRow> = on_db!(self, pool => sqlx::query_as(sql).bind(&list).bind(user_id).fetch_all(pool).await)?;
        let mut by_id: HashMap<i64, BusinessRow> =
            rows.into_iter().map(|row| (row.id, row)).collect();
        Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// The personalisation details of a send batch's businesses of one owner, by id, with each one's icebreaker in
    /// `language` (the template's) when given.
    pub async fn recipients(
        &self,
        ids: &[i64],
        user_id: i64,
        language: Option<&str>,
        today: chrono::NaiveDate,
    ) -> StoreResult<HashMap<i64, Recipient>> {
        let sql = BUSINESS_RECIPIENTS.sql(self);
        let list = json_list(ids);
        let rows: Vec<RecipientRow> = match &**self {
            Db::Postgres(pool) => {
                sqlx::query_as(sql)
                    .bind(&list)
                    .bind(user_id)
                    .fetch_all(pool)
                    .await?
            }
            Db::Sqlite { readers, .. } => {
                fetch_json_rows(sqlx::query_scalar(sql).bind(&list).bind(user_id), readers).await?
            }
        };
        Ok(rows
            .into_iter()
            .map(
                |(id, name, city, website, category, text, origin, line_language, facts)| {
                    let mut recipient = Recipient {
                        business_name: Some(name),
                        city,
                        website,
                        category,
                        icebreaker: None,
                    };
                    let line = match (text, origin.and_then(|origin| origin.parse().ok())) {
                        (Some(text), Some(origin)) => {
                            let row = crate::discovery::icebreakers::IcebreakerRow {
                                business_id: id,
                                facts: facts.unwrap_or_default(),
                                sources: String::new(),
                                text,
                                language: line_language.unwrap_or_default(),
                                origin,
                                written_at: 0,
                            };
                            crate::discovery::icebreakers::in_language(&row, language, today)
                        }
                        _ => None,
                    };
                    // A user's line may name the prospect's other details ({{businessName}}): filled in here, once.
                    recipient.icebreaker = line.map(|line| {
                        crate::campaigns::personalise::render(&line, &recipient, "icebreaker").text
                    });
                    (id, recipient)
                },
            )
            .collect())
    }

    pub async fn load_enrich_target(&self, id: i64) -> StoreResult<Option<EnrichTarget>> {
        let sql = BUSINESS_LOAD.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// A website lookup is queued: the email is pending while it runs, unless the business has one.
    pub async fn mark_email_pending(&self, id: i64) -> StoreResult<()> {
        let sql = BUSINESS_MARK_PENDING.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).execute(pool).await.map(|_| ()))
    }

    /// Records what the website gave: the best address (kept if one was known), its page and verdict, the
    /// outcome, the profiles.
    pub async fn record_enrichment(
        &self,
        id: i64,
        found: &Enrichment<'_>,
        now: i64,
    ) -> StoreResult<()> {
        let sql = BUSINESS_ENRICHED.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(found.email).bind(found.source).bind(found.status)
            .bind(found.social_media).bind(now).bind(found.verdict).bind(found.website_error)
            .execute(pool).await.map(|_| ()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::import::*;
    use crate::discovery::search::*;

    #[test]
    fn import_rows_are_reported_by_the_line_they_start_on() {
        let crlf = "name,email\r\nGood,a@b.co\r\n,x@y.co\r\nBad,nope\r\n";
        let lines = |file: &str| {
            let parsed = parse_import(file.as_bytes(), "q").unwrap();
            let kept: Vec<usize> = parsed.rows.iter().map(|(line, _)| *line).collect();
            let refused: Vec<usize> = parsed.errors.iter().map(|error| error.line).collect();
            (kept, refused)
        };
        assert_eq!(lines(crlf), (vec![2], vec![3, 4]));
        let spanning = "name,address\nCafé,\"Street 1\nHelsinki\"\n,missing\n";
        assert_eq!(lines(spanning), (vec![2], vec![4]));
    }

    #[test]
    fn dedupe_keys_normalise() {
        assert_eq!(
            website_domain("https://www.Example.com/contact"),
            Some("example.com".into())
        );
        assert_eq!(website_domain("example.com"), Some("example.com".into()));
        assert_eq!(website_domain("not a site"), None);
        assert_eq!(phone_e164("+358 9 123 4567"), Some("+35891234567".into()));
        assert_eq!(
            phone_e164("00358 (9) 123-4567; +358 40 1"),
            Some("+35891234567".into())
        );
        assert_eq!(phone_e164("09 123 4567"), Some("091234567".into()));
        assert_eq!(phone_e164("12"), None);
        assert_eq!(
            name_address_key("Café Ursula", Some("Ehrenströmintie 3")),
            name_address_key("CAFÉ  ursula", Some("Ehrenströmintie 3."))
        );
    }

    #[test]
    fn lead_files_report_bad_rows_and_refuse_unreadable_files() {
        let file = "Name,Email,Website,Phone\nCafé Ursula,hello@ursula.fi,ursula.fi,+358 9 652 817\n,x@y.fi,,\nBad Mail,not-an-email,,\n\"Kahvila, Oy\",,kahvila.fi,\n";
        let parsed = parse_import(file.as_bytes(), "import: leads.csv").unwrap();
        let names: Vec<&str> = parsed.rows.iter().map(|(_, c)| c.name.as_str()).collect();
        assert_eq!(names, vec!["Café Ursula", "Kahvila, Oy"]);
        assert_eq!(parsed.rows[0].1.email.as_deref(), Some("hello@ursula.fi"));
        assert_eq!(parsed.rows[0].1.provider, "import");
        assert_eq!(
            parsed.errors,
            vec![
                RowError {
                    line: 3,
                    message: "name is required".into()
                },
                RowError {
                    line: 4,
                    message: "not-an-email is not a valid email address".into()
                }
            ]
        );
        assert!(
            parse_import(b"email\na@b.co\n", "q")
                .unwrap_err()
                .contains("name column")
        );
        assert!(
            parse_import(&[0xff, 0xfe, 0x00], "q")
                .unwrap_err()
                .contains("UTF-8")
        );
    }

    /// Issue 80.4: NUL and other control characters in a cell never reach a subject or a header; a line break or
    /// tab inside a quoted cell is a space.
    #[test]
    fn lead_files_lose_control_characters() {
        let file = "name,city,category\n\"Caf\u{0}\u{7}e\tNul\r\nBar\",\"Hel\u{0}sinki\",\u{0}\n";
        let parsed = parse_import(file.as_bytes(), "q").unwrap();
        let candidate = &parsed.rows[0].1;
        assert_eq!(candidate.name, "Cafe Nul Bar");
        assert_eq!(candidate.city.as_deref(), Some("Helsinki"));
        assert_eq!(
            candidate.category, None,
            "a cell of control characters is empty"
        );
    }

    #[test]
    fn searches_follow_the_spec_rules() {
        let local = SearchRequest {
            search_type: Some("local".into()),
            business_type: Some("cafe".into()),
            geographic_area: Some("Helsinki".into()),
            radius: Some(5),
            ..Default::default()
        };
        let params = local.clone().validate().unwrap();
        assert_eq!(
            (params.max_results, params.chunks(), params.term()),
            (50, 2, "cafe in Helsinki".to_string())
        );
        let fail = |change: fn(&mut SearchRequest)| {
            let mut request = local.clone();
            change(&mut request);
            request.validate().unwrap_err()
        };
        assert_eq!(fail(|r| r.search_type = None), "Search type is required");
        assert_eq!(
            fail(|r| r.business_type = Some(" ".into())),
            "Business type is required"
        );
        assert_eq!(
            fail(|r| r.geographic_area = None),
            "Geographic area is required"
        );
        assert_eq!(fail(|r| r.radius = None), "Search radius is required");
        assert_eq!(
            fail(|r| r.radius = Some(101)),
            "Search radius must be between 1 and 100 miles"
        );
        assert_eq!(
            fail(|r| r.max_results = Some(0)),
            "Max results must be between 1 and 200"
        );
        let online = SearchRequest {
            search_type: Some("online".into()),
            ..Default::default()
        };
        assert_eq!(
            online.clone().validate().unwrap_err(),
            "Online business type is required"
        );
        let with_kind = SearchRequest {
            online_business_type: Some("podcasters".into()),
            ..online
        };
        assert_eq!(
            with_kind.clone().validate().unwrap_err(),
            "Topics are required"
        );
        let complete = SearchRequest {
            topics: Some(serde_json::json!(["baking", "sourdough"])),
            ..with_kind
        };
        assert_eq!(
            complete.validate().unwrap().topics.as_deref(),
            Some("baking, sourdough")
        );
    }
}
