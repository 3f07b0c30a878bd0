//! The console's listings across users: users, campaigns, senders, searches, queue jobs and the audit log, each a
//! page in a whitelisted order with its filter and total (what ra-data-simple-rest's `Content-Range` reports).

use super::audit::{Arg, AuditEntry};
use crate::accounts::store::InviteRow;
use crate::accounts::{AccountStatus, SubscriptionStatus};
use crate::admin::audit::AdminStore;
use crate::platform::clock::{DAY_MS, Timestamp};
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::platform::queue::JobRow;
use crate::sending::pool::Standing;
use crate::sending::senders::SenderState;
use crate::{bind_args, on_db};
use serde::Serialize;

/// A page of a listing: the SQL order (from a resource's whitelist), how many rows and from which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub order: String,
    pub limit: i64,
    pub offset: i64,
}

/// The fields a resource can be sorted by, each with its SQL expression; the first is the default (newest first).
pub struct Sortable {
    pub columns: &'static [(&'static str, &'static str)],
    /// Breaks ties so that pages do not overlap.
    pub tie: &'static str,
}

impl Sortable {
    /// The page of `field` in the direction asked (unknown fields and directions are refused, never passed on).
    pub fn page(
        &self,
        field: Option<&str>,
        descending: bool,
        limit: i64,
        offset: i64,
    ) -> Option<Page> {
        let (column, descending) = match field {
            Some(field) => (self.column(field)?, descending),
            None => (self.columns[0].1, true),
        };
        let direction = if descending { "desc" } else { "asc" };
        Some(Page {
            order: format!("{column} {direction}, {} {direction}", self.tie),
            limit,
            offset,
        })
    }

    fn column(&self, field: &str) -> Option<&'static str> {
        self.columns
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, column)| *column)
    }
}

pub const USERS: Sortable = Sortable {
    columns: &[
        ("createdAt", "u.created_at"),
        ("id", "u.id"),
        ("email", "u.email"),
        ("name", "name"),
        ("accountStatus", "u.account_status"),
        ("subscriptionStatus", "u.subscription_status"),
        ("subscriptionPlan", "u.subscription_plan"),
        ("emailLimit", "u.email_limit"),
        ("emailsUsed", "emails_used"),
        ("subscriptionEndsAt", "u.subscription_ends_at"),
        ("lastLoginAt", "u.last_login_at"),
    ],
    tie: "u.id",
};

pub const CAMPAIGNS: Sortable = Sortable {
    columns: &[
        ("createdAt", "c.created_at"),
        ("id", "c.id"),
        ("name", "c.name"),
        ("userEmail", "u.email"),
        ("status", "c.status"),
        ("queued", "queued"),
        ("sent", "sent"),
        ("failed", "failed"),
    ],
    tie: "c.id",
};

pub const SENDERS: Sortable = Sortable {
    columns: &[
        ("createdAt", "e.created_at"),
        ("id", "e.id"),
        ("userEmail", "u.email"),
        ("provider", "e.provider"),
        ("sendFrom", "e.send_from"),
        ("isActive", "e.is_active"),
        ("dailyCap", "e.daily_cap"),
        ("usedToday", "used_today"),
    ],
    tie: "e.id",
};

pub const SEARCHES: Sortable = Sortable {
    columns: &[
        ("createdAt", "s.created_at"),
        ("id", "s.id"),
        ("userEmail", "u.email"),
        ("searchType", "s.search_type"),
        ("searchTerm", "s.search_term"),
        ("status", "s.status"),
        ("businessesFound", "s.businesses_found"),
    ],
    tie: "s.id",
};

pub const JOBS: Sortable = Sortable {
    columns: &[
        ("runAt", "run_at"),
        ("id", "id"),
        ("jobType", "job_type"),
        ("status", "status"),
        ("attempts", "attempts"),
        ("doneAt", "done_at"),
    ],
    tie: "id",
};

/// Invites are listed newest first only (their table is small and read whole).
pub const INVITES: Sortable = Sortable {
    columns: &[("createdAt", "i.created_at"), ("id", "i.id")],
    tie: "i.id",
};

pub const AUDIT: Sortable = Sortable {
    columns: &[
        ("createdAt", "created_at"),
        ("id", "id"),
        ("actor", "actor"),
        ("action", "action"),
        ("targetType", "target_type"),
    ],
    tie: "id",
};

/// The console's user filters (B §2.15's lookup beside the list).
pub const USER_GROUPS: &[&str] = &["waiting", "trial", "premium", "expired", "administrators"];

/// A user as the console lists them.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminUser {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub account_status: AccountStatus,
    pub subscription_status: SubscriptionStatus,
    pub subscription_plan: Option<String>,
    pub email_limit: i64,
    pub subscription_ends_at: Option<Timestamp>,
    pub last_login_at: Option<Timestamp>,
    pub created_at: Timestamp,
    /// Emails sent in the quota window (30 days).
    pub emails_used: i64,
}

/// A campaign across users, with its progress and why it is paused.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminCampaign {
    pub id: i64,
    pub name: String,
    pub user_email: String,
    pub status: String,
    pub status_reason: Option<String>,
    pub paused_by_user: bool,
    pub created_at: Timestamp,
    pub queued: i64,
    pub sent: i64,
    pub failed: i64,
    pub skipped: i64,
}

/// A sender's health across users.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminSender {
    pub id: i64,
    pub user_email: String,
    pub provider: String,
    pub send_from: String,
    pub is_active: bool,
    pub is_default: bool,
    /// The last sending error (a revoked Gmail grant says so here).
    pub status_message: Option<String>,
    pub replies_error: Option<String>,
    pub daily_cap: i32,
    pub used_today: i64,
    pub created_at: Timestamp,
    /// Its health in rotation (issue 79): sends, at its cap, warming up, or out (why, and since when).
    #[sqlx(skip)]
    pub state: SenderState,
    #[sqlx(skip)]
    pub state_reason: Option<String>,
    #[sqlx(skip)]
    pub cap_today: i64,
    #[sqlx(skip)]
    pub out_at: Option<Timestamp>,
    /// The campaigns whose pool it is in.
    #[sqlx(skip)]
    pub campaigns: Vec<String>,
}

/// A search across users.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminSearch {
    pub id: i64,
    pub user_email: String,
    pub search_type: String,
    pub search_term: String,
    pub status: String,
    pub chunks_done: i32,
    pub chunks_total: i32,
    pub businesses_found: i32,
    pub error: Option<String>,
    pub created_at: Timestamp,
    pub finished_at: Option<Timestamp>,
}

/// What a listing is filtered by: `%text%` over its main columns and a status, kind or group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub text: String,
    pub status: String,
}

impl Filter {
    fn pattern(&self) -> String {
        let text = self.text.trim().to_lowercase();
        if text.is_empty() {
            String::new()
        } else {
            format!("%{text}%")
        }
    }
}

/// Binds the filter args, then (for the page) the limit, the offset and `extra`, and reads rows and total.
macro_rules! page_of {
    ($db:expr, $list:expr, $count:expr, $filters:expr, $page:expr, $extra:expr) => {{
        let filters: Vec<Arg> = $filters;
        let list = $list.ordered($db, &$page.order);
        let count = $count.sql($db);
        let mut args = filters.clone();
        args.push(Arg::int($page.limit));
        args.push(Arg::int($page.offset));
        args.extend($extra);
        let rows = on_db!($db, pool => bind_args!(sqlx::query_as(list), &args).fetch_all(pool).await)?;
        let total: i64 = on_db!($db, pool => bind_args!(sqlx::query_scalar(count), &filters).fetch_one(pool).await)?;
        Ok((rows, total))
    }};
}

/// The first day of the quota window, as `send_counters` counts days (its sums take the days after it).
fn quota_first_day(now: i64) -> i64 {
    now.div_euclid(DAY_MS) - crate::accounts::QUOTA_WINDOW_DAYS
}

impl AdminStore<'_> {
    /// Users, `filter.status` one of `USER_GROUPS` ('' for all); `administrators` are the configured emails.
    pub async fn admin_users(
        &self,
        filter: &Filter,
        administrators: &[String],
        page: &Page,
        now: i64,
    ) -> StoreResult<(Vec<AdminUser>, i64)> {
        let filters = vec![
            Arg::text(filter.pattern()),
            Arg::text(filter.status.clone()),
            Arg::text(administrators.join(",")),
        ];
        page_of!(
            self,
            ADMIN_USERS_LIST,
            ADMIN_USERS_COUNT,
            filters,
            page,
            [Arg::int(quota_first_day(now))]
        )
    }

    pub async fn admin_user(&self, id: i64, now: i64) -> StoreResult<Option<AdminUser>> {
        let sql = ADMIN_USER_ONE.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(quota_first_day(now)).fetch_optional(pool).await)
    }

    /// Campaigns across users, `filter.status` a campaign status; `id` narrows to one.
    pub async fn admin_campaigns(
        &self,
        filter: &Filter,
        id: Option<i64>,
        page: &Page,
    ) -> StoreResult<(Vec<AdminCampaign>, i64)> {
        let filters = vec![
            Arg::text(filter.pattern()),
            Arg::text(filter.status.clone()),
        ];
        page_of!(
            self,
            ADMIN_CAMPAIGNS_LIST,
            ADMIN_CAMPAIGNS_COUNT,
            filters,
            page,
            [Arg::Int(id)]
        )
    }

    /// Senders across users, `filter.status` a provider.
    pub async fn admin_senders(
        &self,
        filter: &Filter,
        page: &Page,
        now: i64,
    ) -> StoreResult<(Vec<AdminSender>, i64)> {
        let filters = vec![
            Arg::text(filter.pattern()),
            Arg::text(filter.status.clone()),
        ];
        let listed: StoreResult<(Vec<AdminSender>, i64)> = async {
            page_of!(
                self,
                ADMIN_SENDERS_LIST,
                ADMIN_SENDERS_COUNT,
                filters,
                page,
                [Arg::int(now.div_euclid(DAY_MS))]
            )
        }
        .await;
        let (mut senders, total) = listed?;
        // The page's health and pools, read per sender (a page is a few dozen).
        let ids: Vec<i64> = senders.iter().map(|sender| sender.id).collect();
        let usage = self.sending().sender_usage(&ids, now).await?;
        for sender in &mut senders {
            let Some(config) = self.sending().load_email_config(sender.id).await? else {
                continue;
            };
            let standing = Standing::of(
                &config,
                usage.get(&sender.id).copied().unwrap_or_default(),
                now,
            );
            sender.state = standing.state;
            sender.state_reason = standing.reason;
            sender.cap_today = standing.cap_today;
            sender.out_at = config.out_at.map(Timestamp);
            sender.campaigns = self
                .sending()
                .sender_campaigns(sender.id)
                .await?
                .into_iter()
                .map(|(_, name)| name)
                .collect();
        }
        Ok((senders, total))
    }

    /// Invite codes; `id` one invite (its page holds it or nothing).
    pub async fn admin_invites(
        &self,
        filter: &Filter,
        id: Option<i64>,
        page: &Page,
    ) -> StoreResult<(Vec<InviteRow>, i64)> {
        page_of!(
            self,
            ADMIN_INVITES_LIST,
            ADMIN_INVITES_COUNT,
            vec![Arg::text(filter.pattern())],
            page,
            [Arg::int(id.unwrap_or(0))]
        )
    }

    /// Searches across users, `filter.status` a search status.
    pub async fn admin_searches(
        &self,
        filter: &Filter,
        page: &Page,
    ) -> StoreResult<(Vec<AdminSearch>, i64)> {
        let filters = vec![
            Arg::text(filter.pattern()),
            Arg::text(filter.status.clone()),
        ];
        page_of!(
            self,
            ADMIN_SEARCHES_LIST,
            ADMIN_SEARCHES_COUNT,
            filters,
            page,
            []
        )
    }

    /// Queue jobs of a kind (`filter.text`, exact) and an apalis status ('' for any).
    pub async fn admin_jobs(
        &self,
        filter: &Filter,
        page: &Page,
    ) -> StoreResult<(Vec<JobRow>, i64)> {
        let filters = vec![
            Arg::text(filter.text.clone()),
            Arg::text(filter.status.clone()),
        ];
        page_of!(self, ADMIN_JOBS_LIST, ADMIN_JOBS_COUNT, filters, page, [])
    }

    /// The audit log, by actor, action and target type ('' for any).
    pub async fn admin_audit(
        &self,
        actor: &str,
        action: &str,
        target_type: &str,
        page: &Page,
    ) -> StoreResult<(Vec<AuditEntry>, i64)> {
        let filters = vec![Arg::text(actor), Arg::text(action), Arg::text(target_type)];
        page_of!(self, ADMIN_AUDIT_LIST, ADMIN_AUDIT_COUNT, filters, page, [])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_takes_only_whitelisted_fields() {
        let page = USERS.page(Some("email"), false, 25, 50).unwrap();
        assert_eq!(page.order, "u.email asc, u.id asc");
        assert_eq!((page.limit, page.offset), (25, 50));
        assert_eq!(
            USERS.page(None, false, 10, 0).unwrap().order,
            "u.created_at desc, u.id desc"
        );
        assert!(
            USERS
                .page(Some("email; drop table users"), true, 10, 0)
                .is_none()
        );
        assert!(JOBS.page(Some("payload"), true, 10, 0).is_none());
    }

    #[test]
    fn text_filters_match_anywhere_case_insensitively() {
        let filter = Filter {
            text: " Ada ".into(),
            status: String::new(),
        };
        assert_eq!(filter.pattern(), "%ada%");
        assert_eq!(Filter::default().pattern(), "");
    }
}
