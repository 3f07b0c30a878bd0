//! The application's reads and writes, one method per query, each running on either backend.

use serde::Serialize;

use crate::accounts::{Subscription, User};
use crate::campaigns::{CampaignRow, EducationFile};
use crate::clock::iso;
use crate::db::Db;
use crate::on_db;
use crate::queries::*;
use crate::templates::{FollowUpContent, FollowUpRow, TemplateContent, TemplateRow};

pub type StoreError = sqlx::Error;
pub type StoreResult<T> = Result<T, StoreError>;

/// An invite code as the admin API lists it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct InviteRow {
    pub id: i64,
    pub code: String,
    pub note: Option<String>,
    #[serde(serialize_with = "as_iso")]
    pub created_at: i64,
    #[serde(serialize_with = "as_iso_opt")]
    pub redeemed_at: Option<i64>,
    pub redeemed_by_email: Option<String>,
}

fn as_iso<S: serde::Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&iso(*ms))
}

fn as_iso_opt<S: serde::Serializer>(ms: &Option<i64>, serializer: S) -> Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => serializer.serialize_str(&iso(*ms)),
        None => serializer.serialize_none(),
    }
}

/// A suppressed address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct Unsubscribe {
    pub email: String,
    pub source: String,
    #[serde(serialize_with = "as_iso")]
    pub created_at: i64,
}

/// A generation request as stored: the request and, once the job ran, its result or error (JSON text).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GenerationRow {
    pub id: i64,
    pub user_id: i64,
    pub status: String,
    pub request: String,
    pub result: Option<String>,
    pub error: Option<String>,
}

/// A new campaign's columns.
#[derive(Debug, Clone)]
pub struct NewCampaign<'a> {
    pub name: &'a str,
    pub status: &'a str,
    pub business_type: Option<&'a str>,
    pub geographic_area: Option<&'a str>,
    pub radius: i32,
    pub max_results: i32,
}

/// What a pending sign-in remembered between the redirect and the provider's answer.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OAuthFlow {
    pub pkce_verifier: String,
    pub invite_code: Option<String>,
    /// Set for a Gmail connection: the signed-in user who started it, and the sender to save.
    pub user_id: Option<i64>,
    pub gmail_address: Option<String>,
    pub sender_name: Option<String>,
    pub reply_to: Option<String>,
    /// The connection also asks to read the mailbox (for replies).
    pub gmail_read: bool,
}

/// A Gmail connection on its way to Google's consent screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmailFlow<'a> {
    pub user_id: i64,
    pub gmail_address: &'a str,
    pub sender_name: &'a str,
    pub reply_to: &'a str,
    /// Ask for Google's read permission too (the optional second consent, for replies).
    pub read: bool,
}

/// Outcome of redeeming an invite code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redemption {
    Redeemed(Box<User>),
    UnknownOrUsed,
}

/// Binds `users/set_subscription.sql`'s parameters: the email, the subscription columns and the time.
macro_rules! bind_subscription {
    ($query:expr, $email:expr, $subscription:expr, $now:expr) => {
        $query
            .bind($email)
            .bind($subscription.status)
            .bind($subscription.plan)
            .bind($subscription.email_limit)
            .bind($subscription.ends_at)
            .bind($now)
    };
}

/// Binds a follow-up's columns after the two leading parameters of `follow_ups/insert.sql` and `update.sql`.
macro_rules! bind_follow_up {
    ($query:expr, $content:expr, $now:expr) => {
        $query
            .bind(&$content.name)
            .bind(&$content.subject)
            .bind(&$content.body)
            .bind(&$content.objective)
            .bind(&$content.tone)
            .bind($content.sequence_number)
            .bind($content.delay_days)
            .bind($content.is_active)
            .bind($now)
    };
}

impl Db {
    pub async fn upsert_user_on_sign_in(
        &self,
        email: &str,
        first_name: Option<&str>,
        last_name: Option<&str>,
        now: i64,
    ) -> StoreResult<User> {
        let sql = USER_UPSERT_ON_SIGN_IN.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(email).bind(first_name).bind(last_name).bind(now)
            .fetch_one(pool).await)
    }

    pub async fn find_user_by_email(&self, email: &str) -> StoreResult<Option<User>> {
        let sql = USER_FIND_BY_EMAIL.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(email).fetch_optional(pool).await)
    }

    pub async fn find_user(&self, id: i64) -> StoreResult<Option<User>> {
        let sql = USER_FIND_BY_ID.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// Activates the account of `email` with a subscription, creating the account if needed.
    pub async fn set_subscription(
        &self,
        email: &str,
        subscription: &Subscription,
        now: i64,
    ) -> StoreResult<User> {
        let sql = USER_SET_SUBSCRIPTION.sql(self);
        on_db!(self, pool => bind_subscription!(sqlx::query_as(sql), email, subscription, now)
            .fetch_one(pool).await)
    }

    /// Marks every subscription whose period ended as expired; returns how many.
    pub async fn expire_subscriptions(&self, now: i64) -> StoreResult<u64> {
        let sql = USER_EXPIRE_SUBSCRIPTIONS.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(now).execute(pool).await.map(|done| done.rows_affected()))
    }

    pub async fn insert_session(
        &self,
        id_hash: &str,
        user_id: i64,
        now: i64,
        expires_at: i64,
    ) -> StoreResult<()> {
        let sql = SESSION_INSERT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id_hash).bind(user_id).bind(now).bind(expires_at)
            .execute(pool).await.map(|_| ()))
    }

    pub async fn find_session_user(&self, id_hash: &str, now: i64) -> StoreResult<Option<User>> {
        let sql = SESSION_FIND_USER.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id_hash).bind(now).fetch_optional(pool).await)
    }

    pub async fn delete_session(&self, id_hash: &str) -> StoreResult<()> {
        let sql = SESSION_DELETE.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id_hash).execute(pool).await.map(|_| ()))
    }

    pub async fn delete_expired_sessions(&self, now: i64) -> StoreResult<u64> {
        let sql = SESSION_DELETE_EXPIRED.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(now).execute(pool).await.map(|done| done.rows_affected()))
    }

    pub async fn insert_oauth_flow(
        &self,
        state: &str,
        pkce_verifier: &str,
        invite_code: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        let sql = OAUTH_FLOW_INSERT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(state).bind(pkce_verifier).bind(invite_code).bind(now)
            .execute(pool).await.map(|_| ()))
    }

    pub async fn insert_gmail_flow(
        &self,
        state: &str,
        pkce_verifier: &str,
        flow: &GmailFlow<'_>,
        now: i64,
    ) -> StoreResult<()> {
        let sql = OAUTH_FLOW_INSERT_GMAIL.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(state).bind(pkce_verifier).bind(now).bind(flow.user_id)
            .bind(flow.gmail_address).bind(flow.sender_name).bind(flow.reply_to).bind(flow.read).execute(pool).await.map(|_| ()))
    }

    /// Consumes the flow of `state` if it started after `not_before`.
    pub async fn take_oauth_flow(
        &self,
        state: &str,
        not_before: i64,
    ) -> StoreResult<Option<OAuthFlow>> {
        let sql = OAUTH_FLOW_TAKE.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(state).bind(not_before).fetch_optional(pool).await)
    }

    pub async fn delete_stale_oauth_flows(&self, before: i64) -> StoreResult<u64> {
        let sql = OAUTH_FLOW_DELETE_STALE.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(before).execute(pool).await.map(|done| done.rows_affected()))
    }

    pub async fn insert_invite(
        &self,
        code: &str,
        note: Option<&str>,
        created_by: i64,
        now: i64,
    ) -> StoreResult<InviteRow> {
        let sql = INVITE_INSERT.sql(self);
        let id: i64 = on_db!(self, pool => sqlx::query_scalar::<_, i64>(sql)
            .bind(code).bind(note).bind(created_by).bind(now).fetch_one(pool).await)?;
        Ok(InviteRow {
            id,
            code: code.to_string(),
            note: note.map(str::to_string),
            created_at: now,
            redeemed_at: None,
            redeemed_by_email: None,
        })
    }

    pub async fn list_invites(&self) -> StoreResult<Vec<InviteRow>> {
        let sql = INVITE_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).fetch_all(pool).await)
    }

    /// Claims an unused code for `email` and activates the account in one transaction: a used code changes nothing.
    pub async fn redeem_invite(
        &self,
        code: &str,
        email: &str,
        user_id: i64,
        subscription: &Subscription,
        now: i64,
    ) -> StoreResult<Redemption> {
        let (redeem, activate) = (INVITE_REDEEM.sql(self), USER_SET_SUBSCRIPTION.sql(self));
        on_db!(self, pool => {
            let mut tx = pool.begin().await?;
            let claimed: Option<i64> = sqlx::query_scalar(redeem)
                .bind(code).bind(user_id).bind(now).fetch_optional(&mut *tx).await?;
            if claimed.is_none() {
                return Ok(Redemption::UnknownOrUsed);
            }
            let user: User = bind_subscription!(sqlx::query_as(activate), email, subscription, now)
                .fetch_one(&mut *tx).await?;
            tx.commit().await?;
            Ok(Redemption::Redeemed(Box::new(user)))
        })
    }

    /// Emails a user sent since `since` (the quota window).
    pub async fn count_sent_emails_since(&self, user_id: i64, since: i64) -> StoreResult<i64> {
        let sql = SENT_EMAILS_COUNT_SINCE.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(since).fetch_one(pool).await)
    }

    /// Suppresses an address; returns false when it already was.
    pub async fn insert_unsubscribe(
        &self,
        email: &str,
        source: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = UNSUBSCRIBE_INSERT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(email).bind(source).bind(now).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    pub async fn find_unsubscribe(&self, email: &str) -> StoreResult<Option<Unsubscribe>> {
        let sql = UNSUBSCRIBE_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(email).fetch_optional(pool).await)
    }

    /// A page of suppressed addresses containing `filter` (all with ""), and how many match.
    pub async fn list_unsubscribes(
        &self,
        filter: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<(Vec<Unsubscribe>, i64)> {
        let (list, count) = (UNSUBSCRIBE_LIST.sql(self), UNSUBSCRIBE_COUNT.sql(self));
        on_db!(self, pool => {
            let rows = sqlx::query_as(list).bind(filter).bind(limit).bind(offset).fetch_all(pool).await?;
            let total = sqlx::query_scalar(count).bind(filter).fetch_one(pool).await?;
            Ok((rows, total))
        })
    }

    pub async fn list_campaigns(&self, user_id: i64) -> StoreResult<Vec<CampaignRow>> {
        let sql = CAMPAIGN_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)
    }

    /// The campaign if `user_id` owns it.
    pub async fn find_campaign(&self, id: i64, user_id: i64) -> StoreResult<Option<CampaignRow>> {
        let sql = CAMPAIGN_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    pub async fn insert_campaign(
        &self,
        user_id: i64,
        campaign: &NewCampaign<'_>,
        now: i64,
    ) -> StoreResult<i64> {
        let sql = CAMPAIGN_INSERT.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql)
            .bind(user_id)
            .bind(campaign.name)
            .bind(campaign.status)
            .bind(campaign.business_type)
            .bind(campaign.geographic_area)
            .bind(campaign.radius)
            .bind(campaign.max_results)
            .bind(now)
            .fetch_one(pool).await)
    }

    /// Writes a campaign's editable columns; false when the owner has no such campaign.
    pub async fn update_campaign(&self, row: &CampaignRow, now: i64) -> StoreResult<bool> {
        let sql = CAMPAIGN_UPDATE.sql(self);
        on_db!(self, pool => sqlx::query(sql)
            .bind(row.id)
            .bind(row.user_id)
            .bind(&row.name)
            .bind(&row.status)
            .bind(&row.business_type)
            .bind(&row.geographic_area)
            .bind(row.radius)
            .bind(row.max_results)
            .bind(&row.business_ids)
            .bind(&row.ai_education_text)
            .bind(&row.email_from_name)
            .bind(&row.email_from_address)
            .bind(now)
            .execute(pool).await.map(|done| done.rows_affected() == 1))
    }

    pub async fn delete_campaign(&self, id: i64, user_id: i64) -> StoreResult<bool> {
        self.delete_owned(&CAMPAIGN_DELETE, id, user_id).await
    }

    pub async fn upsert_education_file(
        &self,
        campaign_id: i64,
        file: &EducationFile,
        now: i64,
    ) -> StoreResult<()> {
        let sql = EDUCATION_FILE_UPSERT.sql(self);
        on_db!(self, pool => sqlx::query(sql)
            .bind(campaign_id).bind(&file.name).bind(file.size_bytes).bind(&file.extracted_text).bind(now)
            .execute(pool).await.map(|_| ()))
    }

    pub async fn list_education_files(&self, campaign_id: i64) -> StoreResult<Vec<EducationFile>> {
        let sql = EDUCATION_FILE_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)
    }

    pub async fn delete_education_file(&self, campaign_id: i64, name: &str) -> StoreResult<()> {
        let sql = EDUCATION_FILE_DELETE.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(campaign_id).bind(name).execute(pool).await.map(|_| ()))
    }

    pub async fn list_templates(&self, user_id: i64) -> StoreResult<Vec<TemplateRow>> {
        let sql = TEMPLATE_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)
    }

    pub async fn find_template(&self, id: i64, user_id: i64) -> StoreResult<Option<TemplateRow>> {
        let sql = TEMPLATE_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// A template's subject and body, when the user owns it.
    pub async fn template_content(
        &self,
        id: i64,
        user_id: i64,
    ) -> StoreResult<Option<(String, String)>> {
        let sql = TEMPLATE_CONTENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    pub async fn insert_template(
        &self,
        user_id: i64,
        content: &TemplateContent,
        now: i64,
    ) -> StoreResult<i64> {
        let sql = TEMPLATE_INSERT.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql)
            .bind(user_id)
            .bind(&content.name)
            .bind(&content.subject)
            .bind(&content.body)
            .bind(&content.objective)
            .bind(&content.tone)
            .bind(&content.email_signature)
            .bind(now)
            .fetch_one(pool).await)
    }

    pub async fn update_template(
        &self,
        id: i64,
        user_id: i64,
        content: &TemplateContent,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = TEMPLATE_UPDATE.sql(self);
        on_db!(self, pool => sqlx::query(sql)
            .bind(id)
            .bind(user_id)
            .bind(&content.name)
            .bind(&content.subject)
            .bind(&content.body)
            .bind(&content.objective)
            .bind(&content.tone)
            .bind(now)
            .execute(pool).await.map(|done| done.rows_affected() == 1))
    }

    pub async fn delete_template(&self, id: i64, user_id: i64) -> StoreResult<bool> {
        self.delete_owned(&TEMPLATE_DELETE, id, user_id).await
    }

    pub async fn list_follow_ups(
        &self,
        template_id: i64,
        user_id: i64,
    ) -> StoreResult<Vec<FollowUpRow>> {
        let sql = FOLLOW_UP_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(template_id).bind(user_id).fetch_all(pool).await)
    }

    pub async fn find_follow_up(&self, id: i64, user_id: i64) -> StoreResult<Option<FollowUpRow>> {
        let sql = FOLLOW_UP_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// The new follow-up's id, or None when its position in the sequence is taken (the database keeps positions
    /// unique and between 1 and 4, however many requests race).
    pub async fn insert_follow_up(
        &self,
        template_id: i64,
        user_id: i64,
        content: &FollowUpContent,
        now: i64,
    ) -> StoreResult<Option<i64>> {
        let sql = FOLLOW_UP_INSERT.sql(self);
        on_db!(self, pool => bind_follow_up!(sqlx::query_scalar(sql).bind(template_id).bind(user_id), content, now)
            .fetch_optional(pool).await)
    }

    /// Whether the owner's follow-up was written; None when the position it moves to is taken.
    pub async fn update_follow_up(
        &self,
        id: i64,
        user_id: i64,
        content: &FollowUpContent,
        now: i64,
    ) -> StoreResult<Option<bool>> {
        let sql = FOLLOW_UP_UPDATE.sql(self);
        let written = on_db!(self, pool => bind_follow_up!(sqlx::query(sql).bind(id).bind(user_id), content, now)
            .execute(pool).await.map(|done| done.rows_affected() == 1));
        match written {
            Ok(updated) => Ok(Some(updated)),
            Err(sqlx::Error::Database(error)) if error.is_unique_violation() => Ok(None),
            Err(error) => Err(error),
        }
    }

    pub async fn delete_follow_up(&self, id: i64, user_id: i64) -> StoreResult<bool> {
        self.delete_owned(&FOLLOW_UP_DELETE, id, user_id).await
    }

    /// Makes a template's sequence exactly `contents`, in one transaction: existing follow-ups are updated by
    /// position, extras created, surplus deleted (B §4). Returns false when the owner has no such template.
    pub async fn sync_follow_ups(
        &self,
        template_id: i64,
        user_id: i64,
        contents: &[FollowUpContent],
        now: i64,
    ) -> StoreResult<bool> {
        let (lock, find, list) = (
            TEMPLATE_LOCK.sql(self),
            TEMPLATE_CONTENT.sql(self),
            FOLLOW_UP_LIST.sql(self),
        );
        let (insert, update, delete) = (
            FOLLOW_UP_INSERT.sql(self),
            FOLLOW_UP_UPDATE.sql(self),
            FOLLOW_UP_DELETE.sql(self),
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await?;
            // PostgreSQL: concurrent changes to this sequence wait for this one (positions stay unique).
            sqlx::query(lock).bind(template_id).execute(&mut *tx).await?;
            let template: Option<(String, String)> =
                sqlx::query_as(find).bind(template_id).bind(user_id).fetch_optional(&mut *tx).await?;
            if template.is_none() {
                return Ok(false);
            }
            let existing: Vec<FollowUpRow> =
                sqlx::query_as(list).bind(template_id).bind(user_id).fetch_all(&mut *tx).await?;
            // In position order, each row moves to a position no higher than its own, which is free by then.
            for (index, content) in contents.iter().enumerate() {
                match existing.get(index) {
                    Some(row) => {
                        bind_follow_up!(sqlx::query(update).bind(row.id).bind(user_id), content, now)
                            .execute(&mut *tx).await?;
                    }
                    None => {
                        bind_follow_up!(sqlx::query(insert).bind(template_id).bind(user_id), content, now)
                            .execute(&mut *tx).await?;
                    }
                }
            }
            for surplus in existing.iter().skip(contents.len()) {
                sqlx::query(delete).bind(surplus.id).bind(user_id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    pub async fn insert_generation(
        &self,
        user_id: i64,
        request: &str,
        now: i64,
    ) -> StoreResult<i64> {
        let sql = GENERATION_INSERT.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(request).bind(now).fetch_one(pool).await)
    }

    pub async fn find_generation(
        &self,
        id: i64,
        user_id: i64,
    ) -> StoreResult<Option<GenerationRow>> {
        let sql = GENERATION_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// The job's read of its request (no owner check: the job carries the id the API created).
    pub async fn load_generation(&self, id: i64) -> StoreResult<Option<GenerationRow>> {
        let sql = GENERATION_LOAD.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// Records a generation's outcome once; a retried job does not overwrite a finished one.
    pub async fn finish_generation(
        &self,
        id: i64,
        status: &str,
        result: Option<&str>,
        error: Option<&str>,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = GENERATION_FINISH.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(status).bind(result).bind(error).bind(now)
            .execute(pool).await.map(|done| done.rows_affected() == 1))
    }

    /// (sends, opened, replied) of a user's emails from templates with this objective and tone.
    pub async fn own_results(
        &self,
        user_id: i64,
        objective: &str,
        tone: &str,
    ) -> StoreResult<(i64, i64, i64)> {
        let sql = RATES_OWN_RESULTS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(objective).bind(tone).fetch_one(pool).await)
    }

    /// Runs a `delete ... where id = $1 and user_id = $2`; false when the owner has no such row.
    async fn delete_owned(&self, query: &Query, id: i64, user_id: i64) -> StoreResult<bool> {
        let sql = query.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(user_id).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }
}
