//! Campaign analytics (B §2.4, §2.10, §2.11, §3 Campaign summary and Campaign email, §4 counting rules), read from
//! the per-(campaign, day) counters that triggers keep as messages change and events arrive (migration 0013), so a
//! campaign of a million messages costs as much to summarise as one of ten. Only the page of messages a screen shows
//! is read row by row.

use std::collections::HashMap;

use serde::Serialize;

use crate::campaigns::CampaignStatus;
use crate::on_db;
use crate::platform::clock::Timestamp;
use crate::platform::clock::iso;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::sending::messages::MessageStatus;
use crate::tracking::TrackingStore;
use crate::tracking::events::EventKind;
use crate::tracking::sent::SentEvent;

const DAY_MS: i64 = 86_400_000;
const KM_PER_MILE: f64 = 1.609_344;

/// A campaign with its counters summed over every day.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CampaignTotals {
    pub id: i64,
    pub name: String,
    pub status: CampaignStatus,
    pub status_reason: Option<String>,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    pub radius: i32,
    pub created_at: i64,
    /// Its emails carry the open pixel: without it, opens are not tracked (shown as such, not as 0%).
    pub track_opens: bool,
    pub messages: i64,
    pub sent: i64,
    pub failed: i64,
    pub skipped: i64,
    pub delivered: i64,
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
    pub spam: i64,
    pub unsubscribed: i64,
    pub human_opens: i64,
    pub machine_opens: i64,
    pub clicks: i64,
    pub meetings_booked: i64,
}

/// A campaign as the analytics screens show it (radius in km there, A §3).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignInfo {
    pub id: i64,
    pub name: String,
    pub status: CampaignStatus,
    pub status_reason: Option<String>,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    /// Miles, as the builder has it.
    pub radius: i32,
    pub radius_km: i64,
    pub created_at: Timestamp,
    /// Its emails carry the open pixel; when false its opens show as "not tracked" rather than 0%.
    pub opens_tracked: bool,
}

/// B §3 Campaign summary, plus the counts the list cards and tiles need. Rates are whole-number percentages of
/// the emails sent, 0 when none was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Every message of the campaign, whatever its state.
    pub total_emails: i64,
    /// Messages waiting for (or in) their send.
    pub queued: i64,
    pub total_sent: i64,
    /// B §4: failed sends and bounces.
    pub failed: i64,
    /// Recipients left out (unsubscribed, suppressed, no address).
    pub skipped: i64,
    pub delivered: i64,
    pub delivery_rate: i64,
    pub opened: i64,
    pub open_rate: i64,
    pub clicked: i64,
    pub click_rate: i64,
    pub replied: i64,
    pub reply_rate: i64,
    pub bounced: i64,
    pub bounce_rate: i64,
    pub spam_reported: i64,
    pub unsubscribed: i64,
    /// Human (and manual) opens, every time; machine opens (image proxies, scanners) apart.
    pub total_opens: i64,
    pub machine_opens: i64,
    pub total_clicks: i64,
    /// Conversations the user labelled "meeting booked" in the inbox.
    pub meetings_booked: i64,
}

/// A whole-number percentage, rounded half up; 0 of nothing is 0.
pub fn percent(part: i64, whole: i64) -> i64 {
    if whole <= 0 {
        0
    } else {
        (part * 200 + whole) / (whole * 2)
    }
}

impl CampaignTotals {
    pub fn info(&self) -> CampaignInfo {
        CampaignInfo {
            id: self.id,
            name: self.name.clone(),
            status: self.status,
            status_reason: self.status_reason.clone(),
            business_type: self.business_type.clone(),
            geographic_area: self.geographic_area.clone(),
            radius: self.radius,
            radius_km: (f64::from(self.radius) * KM_PER_MILE).round() as i64,
            created_at: Timestamp(self.created_at),
            opens_tracked: self.track_opens,
        }
    }

    pub fn summary(&self) -> Summary {
        let sent = self.sent;
        Summary {
            total_emails: self.messages,
            queued: (self.messages - sent - self.failed - self.skipped).max(0),
            total_sent: sent,
            failed: self.failed + self.bounced,
            skipped: self.skipped,
            delivered: self.delivered,
            delivery_rate: percent(self.delivered, sent),
            opened: self.opened,
            open_rate: percent(self.opened, sent),
            clicked: self.clicked,
            click_rate: percent(self.clicked, sent),
            replied: self.replied,
            reply_rate: percent(self.replied, sent),
            bounced: self.bounced,
            bounce_rate: percent(self.bounced, sent),
            spam_reported: self.spam,
            unsubscribed: self.unsubscribed,
            total_opens: self.human_opens,
            machine_opens: self.machine_opens,
            total_clicks: self.clicks,
            meetings_booked: self.meetings_booked,
        }
    }
}

/// A recent message on a campaign card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecentEmail {
    pub id: i64,
    pub campaign_id: i64,
    pub to_email: String,
    pub subject: String,
    pub status: MessageStatus,
    pub sent_at: Option<Timestamp>,
    pub opened_at: Option<Timestamp>,
    pub clicked_at: Option<Timestamp>,
    pub replied_at: Option<Timestamp>,
    pub bounced_at: Option<Timestamp>,
}

/// A campaign on the analytics list (B §2.4): the campaign, its summary and its latest messages.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignAnalytics {
    #[serde(flatten)]
    pub campaign: CampaignInfo,
    pub summary: Summary,
    /// The latest messages (at most `RECENT_EMAILS`); every message is on the campaign's own pages.
    pub emails: Vec<RecentEmail>,
}

pub const RECENT_EMAILS: i64 = 10;

/// One UTC day of a chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DayPoint {
    /// `YYYY-MM-DD`.
    pub date: String,
    pub sent: i64,
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
    pub human_opens: i64,
    pub machine_opens: i64,
}

#[derive(sqlx::FromRow)]
struct DayRow {
    day: i64,
    sent: i64,
    opened: i64,
    clicked: i64,
    replied: i64,
    bounced: i64,
    human_opens: i64,
    machine_opens: i64,
}

/// One message of a campaign as the details page lists it (B §3 Campaign email).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignEmail {
    pub id: i64,
    pub email_id: i64,
    pub to_email: String,
    pub status: MessageStatus,
    pub subject: String,
    pub sent_at: Option<Timestamp>,
    pub delivered: bool,
    pub delivered_at: Option<Timestamp>,
    pub opened: bool,
    pub opened_at: Option<Timestamp>,
    pub open_count: i64,
    pub last_opened_at: Option<Timestamp>,
    pub clicked: bool,
    pub clicked_at: Option<Timestamp>,
    pub click_count: i64,
    pub first_clicked_at: Option<Timestamp>,
    pub clicked_urls: Vec<String>,
    pub replied: bool,
    pub replied_at: Option<Timestamp>,
    pub bounced: bool,
    pub bounced_at: Option<Timestamp>,
    pub bounce_reason: Option<String>,
    pub spam_reported: bool,
    pub spam_reported_at: Option<Timestamp>,
    pub unsubscribed_at: Option<Timestamp>,
    pub has_issues: bool,
    /// Its content was under way when its worker died or its answer never came: it may have arrived, and it is
    /// never sent again (its status is failed).
    pub uncertain: bool,
    /// Why a failed or skipped message was not sent.
    pub not_sent_reason: Option<String>,
    /// 0 for the first email, n for follow-up n.
    pub step: i32,
    /// Why the prospect gets no more follow-ups: stopped by the user, or a reply, bounce, spam report or unsubscribe
    /// on this message.
    pub follow_ups_stopped: Option<String>,
    /// `interested` or `not_interested`, as the prospect's latest reply showed it.
    pub interest: Option<String>,
    /// B §4 (Issues, then Clicked, Opened, Delivered, otherwise Sent), with what B §4 leaves out: a message not
    /// sent is Skipped or Queued, and a reply, the strongest engagement, shows as Replied.
    pub engagement: &'static str,
    pub business_name: Option<String>,
    pub business_address: Option<String>,
    pub business_phone: Option<String>,
    pub business_website: Option<String>,
}

#[derive(sqlx::FromRow)]
struct CampaignEmailRow {
    id: i64,
    to_email: String,
    status: MessageStatus,
    subject: String,
    sent_at: Option<Timestamp>,
    delivered_at: Option<Timestamp>,
    opened_at: Option<Timestamp>,
    clicked_at: Option<Timestamp>,
    replied_at: Option<Timestamp>,
    bounced_at: Option<Timestamp>,
    bounce_reason: Option<String>,
    spam_reported_at: Option<Timestamp>,
    unsubscribed_at: Option<Timestamp>,
    token: Option<String>,
    error: Option<String>,
    step: i32,
    uncertain: bool,
    follow_ups_stopped: Option<String>,
    interest: Option<String>,
    business_name: Option<String>,
    business_address: Option<String>,
    business_phone: Option<String>,
    business_website: Option<String>,
}

/// The per-contact engagement badge of the details page: B §4's Issues, then Clicked, Opened, Delivered, otherwise
/// Sent; before those, a message never sent is Skipped or still Queued, and a reply outranks a click.
pub fn engagement(status: MessageStatus, has_issues: bool, seen: Seen) -> &'static str {
    if has_issues {
        "Issues"
    } else if status == MessageStatus::Skipped {
        "Skipped"
    } else if matches!(status, MessageStatus::Queued | MessageStatus::Sending) {
        "Queued"
    } else if seen.replied {
        "Replied"
    } else if seen.clicked {
        "Clicked"
    } else if seen.opened {
        "Opened"
    } else if seen.delivered {
        "Delivered"
    } else {
        "Sent"
    }
}

/// What is known to have happened to a sent message.
#[derive(Debug, Clone, Copy, Default)]
pub struct Seen {
    pub delivered: bool,
    pub opened: bool,
    pub clicked: bool,
    pub replied: bool,
}

impl CampaignEmailRow {
    fn with_events(self, events: &[SentEvent]) -> CampaignEmail {
        let human_opens = events
            .iter()
            .filter(|event| event.event_type == EventKind::Open && !event.machine);
        let clicks: Vec<&SentEvent> = events
            .iter()
            .filter(|event| event.event_type == EventKind::Click)
            .collect();
        let mut clicked_urls: Vec<String> = Vec::new();
        for url in clicks.iter().filter_map(|event| event.url.clone()) {
            if !clicked_urls.contains(&url) {
                clicked_urls.push(url);
            }
        }
        let bounced = self.bounced_at.is_some() || self.status == MessageStatus::Bounced;
        let spam_reported = self.spam_reported_at.is_some();
        let has_issues =
            bounced || spam_reported || (self.status == MessageStatus::Failed && !self.uncertain);
        let seen = Seen {
            delivered: self.delivered_at.is_some(),
            opened: self.opened_at.is_some(),
            clicked: self.clicked_at.is_some(),
            replied: self.replied_at.is_some(),
        };
        let not_sent_reason = matches!(self.status, MessageStatus::Failed | MessageStatus::Skipped)
            .then_some(self.error)
            .flatten();
        CampaignEmail {
            id: self.id,
            email_id: self.id,
            to_email: self.to_email,
            status: self.status,
            subject: self.subject,
            sent_at: self.sent_at,
            delivered: seen.delivered,
            delivered_at: self.delivered_at,
            opened: seen.opened,
            opened_at: self.opened_at,
            open_count: human_opens.clone().count() as i64,
            last_opened_at: human_opens.map(|event| event.occurred_at).max(),
            clicked: seen.clicked,
            clicked_at: self.clicked_at,
            click_count: clicks.len() as i64,
            first_clicked_at: clicks.iter().map(|event| event.occurred_at).min(),
            clicked_urls,
            replied: seen.replied,
            replied_at: self.replied_at,
            bounced,
            bounced_at: self.bounced_at,
            bounce_reason: self.bounce_reason,
            spam_reported,
            spam_reported_at: self.spam_reported_at,
            unsubscribed_at: self.unsubscribed_at,
            has_issues,
            uncertain: self.uncertain,
            engagement: match self.uncertain {
                true => "Uncertain",
                false => engagement(self.status, has_issues, seen),
            },
            not_sent_reason,
            step: self.step,
            follow_ups_stopped: self.follow_ups_stopped.or_else(|| {
                [
                    (self.replied_at.is_some(), "Replied"),
                    (bounced, "Bounced"),
                    (spam_reported, "Reported as spam"),
                    (self.unsubscribed_at.is_some(), "Unsubscribed"),
                ]
                .into_iter()
                .find_map(|(stopped, reason)| stopped.then(|| reason.to_string()))
            }),
            interest: self.interest,
            business_name: self.business_name,
            business_address: self.business_address,
            business_phone: self.business_phone,
            business_website: self.business_website,
        }
    }
}

/// `GET /api/campaigns/{id}/details` (B §2.11): the campaign, its summary, a page of its messages.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignDetails {
    pub campaign: CampaignInfo,
    pub summary: Summary,
    pub contacts: Vec<CampaignEmail>,
    /// Every message of the campaign (the page holds `contacts.len()` of them).
    pub contacts_total: i64,
}

/// `YYYY-MM-DD` of a UTC day number.
fn day_date(day: i64) -> String {
    iso(day * DAY_MS)[..10].to_string()
}

impl TrackingStore<'_> {
    /// The user's campaigns with their counters (one campaign when `only` is given).
    pub async fn campaign_totals(
        &self,
        user_id: i64,
        only: Option<i64>,
    ) -> StoreResult<Vec<CampaignTotals>> {
        let sql = ANALYTICS_TOTALS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(only).fetch_all(pool).await)
    }

    /// `GET /api/analytics/campaigns`: every campaign of the user with its summary and latest messages.
    pub async fn campaigns_analytics(&self, user_id: i64) -> StoreResult<Vec<CampaignAnalytics>> {
        let totals = self.campaign_totals(user_id, None).await?;
        let sql = ANALYTICS_RECENT_EMAILS.sql(self);
        let recent: Vec<RecentEmail> = on_db!(self, pool => sqlx::query_as(sql).bind(user_id)
            .bind(RECENT_EMAILS).fetch_all(pool).await)?;
        let mut by_campaign: HashMap<i64, Vec<RecentEmail>> = HashMap::new();
        for email in recent {
            by_campaign
                .entry(email.campaign_id)
                .or_default()
                .push(email);
        }
        Ok(totals
            .into_iter()
            .map(|totals| CampaignAnalytics {
                campaign: totals.info(),
                summary: totals.summary(),
                emails: by_campaign.remove(&totals.id).unwrap_or_default(),
            })
            .collect())
    }

    /// Sent, opened, clicked, replied and bounced per UTC day for the `days` days up to `today_ms`, every day
    /// present (zero when nothing happened), over all the user's campaigns or one.
    pub async fn daily_activity(
        &self,
        user_id: i64,
        campaign_id: Option<i64>,
        days: i64,
        today_ms: i64,
    ) -> StoreResult<Vec<DayPoint>> {
        let today = today_ms.div_euclid(DAY_MS);
        let first = today - days + 1;
        let sql = ANALYTICS_DAILY.sql(self);
        let rows: Vec<DayRow> = on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(campaign_id)
            .bind(first).fetch_all(pool).await)?;
        let mut by_day: HashMap<i64, DayRow> = rows.into_iter().map(|row| (row.day, row)).collect();
        Ok((first..=today)
            .map(|day| {
                let row = by_day.remove(&day);
                let value = |pick: fn(&DayRow) -> i64| row.as_ref().map(pick).unwrap_or(0);
                DayPoint {
                    date: day_date(day),
                    sent: value(|row| row.sent),
                    opened: value(|row| row.opened),
                    clicked: value(|row| row.clicked),
                    replied: value(|row| row.replied),
                    bounced: value(|row| row.bounced),
                    human_opens: value(|row| row.human_opens),
                    machine_opens: value(|row| row.machine_opens),
                }
            })
            .collect())
    }

    /// `GET /api/campaigns/{id}/details`; None when the campaign is not the user's.
    pub async fn campaign_details(
        &self,
        user_id: i64,
        campaign_id: i64,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Option<CampaignDetails>> {
        let Some(totals) = self
            .campaign_totals(user_id, Some(campaign_id))
            .await?
            .pop()
        else {
            return Ok(None);
        };
        let sql = ANALYTICS_CAMPAIGN_EMAILS.sql(self);
        let rows: Vec<CampaignEmailRow> = on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id)
            .bind(limit).bind(offset).fetch_all(pool).await)?;
        let tokens: Vec<&str> = rows.iter().filter_map(|row| row.token.as_deref()).collect();
        let mut events = self.events_of_tokens(&tokens).await?;
        let contacts = rows
            .into_iter()
            .map(|row| {
                let own = row
                    .token
                    .as_ref()
                    .and_then(|token| events.remove(token))
                    .unwrap_or_default();
                row.with_events(&own)
            })
            .collect();
        Ok(Some(CampaignDetails {
            campaign: totals.info(),
            summary: totals.summary(),
            contacts,
            contacts_total: totals.messages,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_are_whole_numbers_of_sent_and_zero_of_nothing() {
        assert_eq!(percent(0, 0), 0);
        assert_eq!(percent(5, 0), 0);
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(2, 3), 67);
        assert_eq!(percent(1, 8), 13); // 12.5 rounds up
        assert_eq!(percent(3, 3), 100);
    }

    #[test]
    fn engagement_badge_follows_the_precedence_of_b4_with_replies_and_unsent_messages() {
        use MessageStatus::*;
        let all = Seen {
            delivered: true,
            opened: true,
            clicked: true,
            replied: true,
        };
        let only = |pick: fn(&mut Seen)| {
            let mut seen = Seen::default();
            pick(&mut seen);
            seen
        };
        assert_eq!(engagement(Sent, true, all), "Issues");
        assert_eq!(engagement(Replied, false, all), "Replied");
        assert_eq!(
            engagement(
                Sent,
                false,
                Seen {
                    replied: false,
                    ..all
                }
            ),
            "Clicked"
        );
        assert_eq!(
            engagement(Sent, false, only(|seen| seen.opened = true)),
            "Opened"
        );
        assert_eq!(
            engagement(Sent, false, only(|seen| seen.delivered = true)),
            "Delivered"
        );
        assert_eq!(engagement(Sent, false, Seen::default()), "Sent");
        // A skipped business was never emailed; it used to be badged 'Sent'.
        assert_eq!(engagement(Skipped, false, Seen::default()), "Skipped");
        assert_eq!(engagement(Queued, false, Seen::default()), "Queued");
        assert_eq!(engagement(Sending, false, Seen::default()), "Queued");
    }

    #[test]
    fn days_print_as_utc_dates() {
        assert_eq!(day_date(0), "1970-01-01");
        assert_eq!(day_date(20_413), "2025-11-21");
    }
}
