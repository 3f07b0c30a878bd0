//! Accounts as stored: users and their subscriptions, sessions, pending OAuth sign-ins and Gmail connections,
//! invite codes, and the count of emails in the quota window.

use serde::Serialize;

use super::{AccountStatus, Subscription, User};
use crate::accounts::AccountsStore;
use crate::platform::clock::Timestamp;
use crate::platform::db::{StoreResult, Tx};
use crate::platform::queries::*;
use crate::{on_db, on_tx};

/// An invite code as the admin API lists it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InviteRow {
    pub id: i64,
    pub code: String,
    pub note: Option<String>,
    pub created_at: Timestamp,
    pub redeemed_at: Option<Timestamp>,
    pub redeemed_by_email: Option<String>,
    /// Revoked by an administrator: the code can no longer be redeemed.
    pub revoked_at: Option<Timestamp>,
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

impl AccountsStore<'_> {
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
        let mut tx = self.begin_write().await?;
        let user = set_subscription(&mut tx, email, subscription, now).await?;
        tx.commit().await?;
        Ok(user)
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
        let mut tx = self.begin_write().await?;
        let id = insert_invite(&mut tx, code, note, Some(created_by), now).await?;
        tx.commit().await?;
        Ok(InviteRow {
            id,
            code: code.to_string(),
            note: note.map(str::to_string),
            created_at: Timestamp(now),
            redeemed_at: None,
            redeemed_by_email: None,
            revoked_at: None,
        })
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
        let mut tx = self.begin_write().await?;
        let redeem = tx.sql(&INVITE_REDEEM);
        let claimed: Option<i64> = on_tx!(&mut tx, conn => sqlx::query_scalar(redeem)
            .bind(code).bind(user_id).bind(now).fetch_optional(conn).await)?;
        if claimed.is_none() {
            return Ok(Redemption::UnknownOrUsed);
        }
        let user = set_subscription(&mut tx, email, subscription, now).await?;
        tx.commit().await?;
        Ok(Redemption::Redeemed(Box::new(user)))
    }

    /// Emails a user sent since `since` (the quota window).
    pub async fn count_sent_emails_since(&self, user_id: i64, since: i64) -> StoreResult<i64> {
        let sql = SENT_EMAILS_COUNT_SINCE.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(since).fetch_one(pool).await)
    }

    pub async fn set_postal_address(
        &self,
        user_id: i64,
        address: &str,
        now: i64,
    ) -> StoreResult<()> {
        let sql = USER_SET_POSTAL_ADDRESS.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(user_id).bind(address).bind(now).execute(pool).await.map(|_| ()))
    }
}

// An account's writes that an administrator's change makes in its audited transaction (`admin::audit`); the
// sign-in and invite paths above make them in their own.

/// Activates the account of `email` with a subscription, creating the account if needed.
pub async fn set_subscription(
    tx: &mut Tx,
    email: &str,
    subscription: &Subscription,
    now: i64,
) -> StoreResult<User> {
    let sql = tx.sql(&USER_SET_SUBSCRIPTION);
    on_tx!(tx, conn => sqlx::query_as(sql).bind(email).bind(subscription.status).bind(subscription.plan)
        .bind(subscription.email_limit).bind(subscription.ends_at).bind(now).fetch_one(conn).await)
}

/// Activates or deactivates an account; false when it already was.
pub async fn set_account_status(
    tx: &mut Tx,
    user_id: i64,
    status: AccountStatus,
    now: i64,
) -> StoreResult<bool> {
    let sql = tx.sql(&USER_SET_ACCOUNT_STATUS);
    on_tx!(tx, conn => sqlx::query(sql).bind(user_id).bind(status).bind(now).execute(conn).await
        .map(|done| done.rows_affected() > 0))
}

/// A new monthly email limit; false when it already was.
pub async fn set_email_limit(tx: &mut Tx, user_id: i64, limit: i64, now: i64) -> StoreResult<bool> {
    let sql = tx.sql(&USER_SET_EMAIL_LIMIT);
    on_tx!(tx, conn => sqlx::query(sql).bind(user_id).bind(limit).bind(now).execute(conn).await
        .map(|done| done.rows_affected() > 0))
}

/// `by_ms` more on the subscription, from its end or from now when it ended; false when there is none.
pub async fn extend_subscription(
    tx: &mut Tx,
    user_id: i64,
    by_ms: i64,
    now: i64,
) -> StoreResult<bool> {
    let sql = tx.sql(&USER_EXTEND_SUBSCRIPTION);
    on_tx!(tx, conn => sqlx::query(sql).bind(user_id).bind(by_ms).bind(now).execute(conn).await
        .map(|done| done.rows_affected() > 0))
}

/// A new single-use invite code; returns its id.
pub async fn insert_invite(
    tx: &mut Tx,
    code: &str,
    note: Option<&str>,
    created_by: Option<i64>,
    now: i64,
) -> StoreResult<i64> {
    let sql = tx.sql(&INVITE_INSERT);
    on_tx!(tx, conn => sqlx::query_scalar(sql).bind(code).bind(note).bind(created_by).bind(now)
        .fetch_one(conn).await)
}

/// Revokes a code neither redeemed nor revoked; false otherwise.
pub async fn revoke_invite(tx: &mut Tx, code: &str, now: i64) -> StoreResult<bool> {
    let sql = tx.sql(&INVITE_REVOKE);
    on_tx!(tx, conn => sqlx::query(sql).bind(code).bind(now).execute(conn).await
        .map(|done| done.rows_affected() > 0))
}
