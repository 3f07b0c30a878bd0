//! Mailbox pools (issue 79): a campaign sends its first emails from one or more of its user's senders, and each
//! message gets its sender when it is sent. The sender with the most room left today takes the next few, within its
//! daily cap, which a new sender reaches by ramping up (`Ramp`): so a day's messages spread over the pool, and when
//! every sender is at its cap the rest wait for tomorrow. A sender out of rotation (`health`) or removed takes none.
//! What is already in a thread (a follow-up, an answer) stays on the mailbox that started it (`batch_pool`).

use std::collections::HashMap;

use crate::platform::clock::{DAY_MS, Timestamp};
use crate::platform::db::{BeginWrite, StoreResult, json_list};
use crate::platform::queries::*;
use crate::sending::SendingStore;
use crate::sending::senders::{EmailConfig, EmailConfigView, SenderState};
use crate::{on_db, on_writer};

/// A sender's use: what it sent today (UTC) and on how many earlier days it sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub used_today: i64,
    pub days_sent: i64,
}

/// A sender's standing today: its cap under the ramp-up, when it reaches its full cap, its state and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub cap_today: i64,
    /// The start (UTC) of the first day at its full cap, when that is after today.
    pub full_cap_on: Option<i64>,
    pub state: SenderState,
    pub reason: Option<String>,
}

impl Standing {
    pub fn of(config: &EmailConfig, usage: Usage, now: i64) -> Self {
        let ramp = config.ramp();
        let cap_today = ramp.cap(config.daily_cap, usage.days_sent);
        let today = now.div_euclid(DAY_MS);
        let days_to_full = ramp.days_to_full(config.daily_cap, cap_today);
        let full_cap_on = (days_to_full > 0).then(|| (today + days_to_full) * DAY_MS);
        let (state, reason) = if config.removed_at.is_some() {
            (SenderState::Out, Some("Removed".to_string()))
        } else if let Some(reason) = &config.out_reason {
            (SenderState::Out, Some(reason.clone()))
        } else if !config.is_active {
            let reason = config
                .status_message
                .clone()
                .unwrap_or_else(|| "Turned off".into());
            (SenderState::Out, Some(reason))
        } else if usage.used_today >= cap_today {
            (
                SenderState::AtCap,
                Some(format!(
                    "Sent its {cap_today} for today; it sends again tomorrow"
                )),
            )
        } else if let Some(day) = full_cap_on {
            (
                SenderState::Ramping,
                Some(format!(
                    "Warming up: {cap_today} a day today, its full {} a day from {}",
                    config.daily_cap,
                    crate::platform::clock::date_of(day)
                )),
            )
        } else {
            (SenderState::Active, None)
        };
        Standing {
            cap_today,
            full_cap_on,
            state,
            reason,
        }
    }

    /// What it may still send today.
    pub fn room(&self, usage: Usage) -> i64 {
        if self.state == SenderState::Out {
            return 0;
        }
        (self.cap_today - usage.used_today).max(0)
    }
}

impl EmailConfig {
    /// The sender as the API lists it, with its use of today (`usage`) at `now`.
    pub fn view(&self, usage: Usage, now: i64) -> EmailConfigView {
        let standing = Standing::of(self, usage, now);
        EmailConfigView {
            id: self.id,
            config_name: format!("{} <{}>", self.send_from_name, self.send_from),
            send_from_name: self.send_from_name.clone(),
            display_name: self.send_from_name.clone(),
            email_address: self.send_from.clone(),
            reply_to: self.reply_to.clone(),
            provider: self.provider,
            is_active: self.is_active,
            is_default: self.is_default,
            is_verified: self.is_verified,
            status_message: self.status_message.clone(),
            daily_cap: self.daily_cap,
            smtp_host: self.smtp_host.clone(),
            smtp_port: self.smtp_port,
            smtp_security: self.smtp_security,
            smtp_username: self.smtp_username.clone(),
            imap_host: self.imap_host.clone(),
            imap_port: self.imap_port,
            imap_security: self.imap_security,
            imap_username: self.imap_username.clone(),
            replies_checked_at: self.replies_checked_at.map(Timestamp),
            replies_error: self.replies_error.clone(),
            gmail_read: self.gmail_read,
            ramp_up: self.ramp_up,
            ramp_start: self.ramp_start,
            ramp_step: self.ramp_step,
            cap_today: standing.cap_today,
            sent_today: usage.used_today,
            full_cap_on: standing.full_cap_on.map(Timestamp),
            state: standing.state,
            state_reason: standing.reason,
            out_at: self.out_at.map(Timestamp),
        }
    }
}

/// Spreads `count` messages over senders with `rooms` left today: each message goes to the sender with the most room
/// left (the first of those tied), so the pool's senders end the day as evenly used as their caps allow and none goes
/// past its room. Returns how many each sender takes (its share goes out on one connection).
pub fn allocate(count: usize, rooms: &[i64]) -> Vec<usize> {
    let mut left: Vec<i64> = rooms.iter().map(|room| (*room).max(0)).collect();
    let mut taken = vec![0; rooms.len()];
    for _ in 0..count {
        let Some((most, room)) = left
            .iter()
            .copied()
            .enumerate()
            .max_by_key(|(at, room)| (*room, std::cmp::Reverse(*at)))
        else {
            break;
        };
        if room == 0 {
            break;
        }
        taken[most] += 1;
        left[most] -= 1;
    }
    taken
}

/// What a pool can send: today, and how many days `messages` take, each sender sending every day as its ramp-up
/// allows (None: more than a year, or a pool that cannot send).
pub fn days_to_send(pool: &[(EmailConfig, Usage)], messages: i64, now: i64) -> Option<i64> {
    let senders: Vec<&(EmailConfig, Usage)> = pool
        .iter()
        .filter(|(config, _)| config.can_send())
        .collect();
    if messages <= 0 {
        return Some(0);
    }
    let mut left = messages;
    for day in 0..366 {
        let sent: i64 = senders
            .iter()
            .map(|(config, usage)| {
                let cap = config.ramp().cap(config.daily_cap, usage.days_sent + day);
                if day == 0 {
                    Standing::of(config, *usage, now).room(*usage)
                } else {
                    cap
                }
            })
            .sum();
        left -= sent;
        if left <= 0 {
            return Some(day + 1);
        }
    }
    None
}

/// One sender of a campaign, as its progress lists it (issue 79).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SenderProgress {
    pub email_config_id: i64,
    pub address: String,
    /// The campaign's messages it sent.
    pub sent: i64,
    /// The campaign's messages waiting on it: its threads' follow-ups and answers, and what it is sending now.
    pub waiting: i64,
    pub cap_today: i64,
    pub sent_today: i64,
    pub state: SenderState,
    /// Why it does not send now (taken out, at its cap, ramping up).
    pub reason: Option<String>,
    /// In the campaign's pool now (a sender that left it may still have threads of this campaign).
    pub in_pool: bool,
}

impl SendingStore<'_> {
    /// The senders of a campaign: its pool (the user's default sender when it names none), then any other sender
    /// its messages went from or wait on.
    pub async fn campaign_senders(
        &self,
        user_id: i64,
        campaign_id: i64,
        now: i64,
    ) -> StoreResult<Vec<SenderProgress>> {
        let sql = CAMPAIGN_SENDERS_PROGRESS.sql(self);
        let counts: Vec<(i64, i64, i64)> =
            on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)?;
        let mut senders = self.effective_pool(user_id, campaign_id).await?;
        let in_pool: Vec<i64> = senders.iter().map(|config| config.id).collect();
        for (config_id, _, _) in &counts {
            if !in_pool.contains(config_id)
                && let Some(config) = self.load_email_config(*config_id).await?
            {
                senders.push(config);
            }
        }
        let ids: Vec<i64> = senders.iter().map(|config| config.id).collect();
        let usage = self.sender_usage(&ids, now).await?;
        Ok(senders
            .iter()
            .map(|config| {
                let used = usage.get(&config.id).copied().unwrap_or_default();
                let standing = Standing::of(config, used, now);
                let (sent, waiting) = counts
                    .iter()
                    .find(|(id, _, _)| *id == config.id)
                    .map_or((0, 0), |(_, sent, waiting)| (*sent, *waiting));
                SenderProgress {
                    email_config_id: config.id,
                    address: config.send_from.clone(),
                    sent,
                    waiting,
                    cap_today: standing.cap_today,
                    sent_today: used.used_today,
                    state: standing.state,
                    reason: standing.reason,
                    in_pool: in_pool.contains(&config.id),
                }
            })
            .collect())
    }

    /// The senders as the API lists them, with their use of today.
    pub async fn sender_views(
        &self,
        configs: &[EmailConfig],
        now: i64,
    ) -> StoreResult<Vec<crate::sending::senders::EmailConfigView>> {
        let ids: Vec<i64> = configs.iter().map(|config| config.id).collect();
        let usage = self.sender_usage(&ids, now).await?;
        Ok(configs
            .iter()
            .map(|config| config.view(usage.get(&config.id).copied().unwrap_or_default(), now))
            .collect())
    }

    /// A campaign's senders in the user's order (removed ones have left it).
    pub async fn campaign_pool(&self, campaign_id: i64) -> StoreResult<Vec<EmailConfig>> {
        let sql = CAMPAIGN_SENDERS_POOL.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)
    }

    /// The senders a campaign's first emails go from: its pool, else the user's default sender (none: the outbox).
    pub async fn effective_pool(
        &self,
        user_id: i64,
        campaign_id: i64,
    ) -> StoreResult<Vec<EmailConfig>> {
        let pool = self.campaign_pool(campaign_id).await?;
        if !pool.is_empty() {
            return Ok(pool);
        }
        Ok(self.default_sender(user_id).await?.into_iter().collect())
    }

    /// The pools of a user's campaigns, by campaign.
    pub async fn campaign_pools(&self, user_id: i64) -> StoreResult<HashMap<i64, Vec<i64>>> {
        let sql = CAMPAIGN_SENDERS_OF_USER.sql(self);
        let rows: Vec<(i64, i64)> =
            on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)?;
        let mut pools: HashMap<i64, Vec<i64>> = HashMap::new();
        for (campaign_id, config_id) in rows {
            pools.entry(campaign_id).or_default().push(config_id);
        }
        Ok(pools)
    }

    /// The campaigns whose pool has this sender: (id, name).
    pub async fn sender_campaigns(&self, config_id: i64) -> StoreResult<Vec<(i64, String)>> {
        let sql = CAMPAIGN_SENDERS_CAMPAIGNS_OF.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(config_id).fetch_all(pool).await)
    }

    /// Writes a campaign's pool (senders already checked to be its user's), in order, and its one-sender form.
    pub async fn set_campaign_pool(&self, campaign_id: i64, config_ids: &[i64]) -> StoreResult<()> {
        let (clear, add, first) = (
            CAMPAIGN_SENDERS_CLEAR.sql(self),
            CAMPAIGN_SENDERS_ADD.sql(self),
            CAMPAIGN_SENDERS_FIRST.sql(self),
        );
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            sqlx::query(clear).bind(campaign_id).execute(&mut *tx).await?;
            for (position, config_id) in config_ids.iter().enumerate() {
                sqlx::query(add).bind(campaign_id).bind(config_id).bind(position as i32).execute(&mut *tx).await?;
            }
            sqlx::query(first).bind(campaign_id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Messages that wait, queued, with why.
    pub async fn hold_messages(&self, ids: &[i64], why: &str) -> StoreResult<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let sql = OUTGOING_HOLD.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(json_list(ids)).bind(why).execute(pool).await.map(drop))
    }

    /// A campaign whose pool has no sender that can send pauses with why, until one is back.
    pub async fn pause_for_senders(
        &self,
        campaign_id: i64,
        reason: &str,
        now: i64,
    ) -> StoreResult<()> {
        let sql = CAMPAIGN_SENDERS_PAUSE.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(reason).bind(now).execute(pool).await
            .map(drop))
    }

    /// Each sender's use on the day of `now` (a sender that never sent uses nothing).
    pub async fn sender_usage(
        &self,
        config_ids: &[i64],
        now: i64,
    ) -> StoreResult<HashMap<i64, Usage>> {
        if config_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = EMAIL_CONFIG_USAGE.sql(self);
        let rows: Vec<(i64, i64, i64)> = on_db!(self, pool => sqlx::query_as(sql)
            .bind(json_list(config_ids)).bind(now.div_euclid(DAY_MS)).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(id, used_today, days_sent)| {
                (
                    id,
                    Usage {
                        used_today,
                        days_sent,
                    },
                )
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_goes_to_the_sender_with_the_most_room_and_never_past_it() {
        // Three senders capped at 5: fifteen spread five each.
        assert_eq!(allocate(15, &[5, 5, 5]), vec![5, 5, 5]);
        // More messages than room: the rest is left for tomorrow.
        assert_eq!(allocate(20, &[5, 5, 0]), vec![5, 5, 0]);
        // Equal rooms share evenly; uneven ones are evened out first.
        assert_eq!(allocate(30, &[20, 20]), vec![15, 15]);
        assert_eq!(allocate(200, &[500, 500, 500]), vec![67, 67, 66]);
        assert_eq!(allocate(10, &[3, 40, 20]), vec![0, 10, 0]);
        assert_eq!(allocate(30, &[3, 40, 20]), vec![0, 25, 5]);
        assert_eq!(allocate(0, &[3]), vec![0]);
        assert_eq!(allocate(3, &[]), Vec::<usize>::new());
    }
}
