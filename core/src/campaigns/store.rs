//! Campaigns, their education files, templates and follow-up sequences as stored.

use super::templates::{FollowUpContent, FollowUpRow, TemplateContent, TemplateRow};
use super::{CampaignRow, CampaignStatus, EducationFile};
use crate::campaigns::CampaignsStore;
use crate::platform::db::BeginWrite;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::platform::window::SendingWindow;
use crate::{on_db, on_writer};

/// A new campaign's columns.
#[derive(Debug, Clone)]
pub struct NewCampaign<'a> {
    pub name: &'a str,
    pub status: CampaignStatus,
    pub business_type: Option<&'a str>,
    pub geographic_area: Option<&'a str>,
    pub radius: i32,
    pub max_results: i32,
    /// When it sends (the instance's default window, in the user's time zone).
    pub window: &'a SendingWindow,
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

impl CampaignsStore<'_> {
    pub async fn list_campaigns(&self, user_id: i64) -> StoreResult<Vec<CampaignRow>> {
        let sql = CAMPAIGN_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)
    }

    /// The campaign if `user_id` owns it.
    /// Who owns a campaign, for an administrator's action on it.
    pub async fn campaign_owner(&self, id: i64) -> StoreResult<Option<i64>> {
        let sql = CAMPAIGN_OWNER.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(id).fetch_optional(pool).await)
    }

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
            .bind(i32::from(campaign.window.days))
            .bind(campaign.window.start_minute)
            .bind(campaign.window.end_minute)
            .bind(campaign.window.time_zone.name())
            .bind(super::ai_settings::AiSettings::default().certainty_threshold)
            .fetch_one(pool).await)
    }

    /// Writes a campaign's editable columns; false when the owner has no such campaign.
    pub async fn update_campaign(&self, row: &CampaignRow, now: i64) -> StoreResult<bool> {
        let sql = CAMPAIGN_UPDATE.sql(self);
        on_db!(self, pool => sqlx::query(sql)
            .bind(row.id)
            .bind(row.user_id)
            .bind(&row.name)
            .bind(row.status)
            .bind(&row.business_type)
            .bind(&row.geographic_area)
            .bind(row.radius)
            .bind(row.max_results)
            .bind(&row.business_ids)
            .bind(&row.ai_education_text)
            .bind(&row.email_from_name)
            .bind(&row.email_from_address)
            .bind(now)
            .bind(row.builder_step)
            .bind(row.search_id)
            .bind(row.template_id)
            .bind(row.email_config_id)
            .bind(&row.reply_to)
            .bind(row.ai_settings.sales_aggressiveness)
            .bind(row.ai_settings.certainty_threshold)
            .bind(row.ai_settings.reply_timing)
            .bind(row.ai_settings.ai_optimised_follow_up_timing)
            .bind(row.window.window_days)
            .bind(row.window.window_start)
            .bind(row.window.window_end)
            .bind(&row.window.window_time_zone)
            .bind(row.ai_settings.human_approval)
            .bind(row.ai_settings.auto_reply_max_per_day)
            .bind(row.ai_settings.min_confidence_percent)
            .bind(row.track_opens)
            .bind(row.track_clicks)
            .bind(row.plain_text)
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
        let rows: Vec<TemplateRow> =
            on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)?;
        let mut variants = self.first_variants_of_user(user_id).await?;
        Ok(rows
            .into_iter()
            .map(|mut row| {
                row.variants = variants.remove(&row.id).unwrap_or_default();
                row.with_rates()
            })
            .collect())
    }

    pub async fn find_template(&self, id: i64, user_id: i64) -> StoreResult<Option<TemplateRow>> {
        let sql = TEMPLATE_FIND.sql(self);
        let row: Option<TemplateRow> = on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id)
            .fetch_optional(pool).await)?;
        let Some(mut row) = row else { return Ok(None) };
        row.variants = self
            .template_variants(id)
            .await?
            .into_iter()
            .filter(|(step, ..)| *step == 0)
            .map(|(_, _, subject, body)| super::templates::Variant { subject, body })
            .collect();
        Ok(Some(row.with_rates()))
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
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
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

    pub async fn set_campaign_status(
        &self,
        campaign_id: i64,
        status: CampaignStatus,
        reason: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        let sql = CAMPAIGN_SET_STATUS.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(status).bind(reason).bind(now)
            .execute(pool).await.map(|_| ()))
    }

    /// A launch: the campaign is active, and names the template its queued mail uses.
    pub async fn mark_launched(
        &self,
        campaign_id: i64,
        template_id: i64,
        now: i64,
    ) -> StoreResult<()> {
        let sql = CAMPAIGN_LAUNCHED.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(template_id).bind(now)
            .execute(pool).await.map(|_| ()))
    }

    pub async fn resume_campaign_if_paused(&self, campaign_id: i64, now: i64) -> StoreResult<()> {
        let sql = CAMPAIGN_RESUME.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(now).execute(pool).await.map(|_| ()))
    }

    /// Sets when a template's follow-ups are due; false when the owner has no such template.
    pub async fn set_follow_up_timing(
        &self,
        id: i64,
        user_id: i64,
        timing: super::templates::FollowUpTiming,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = TEMPLATE_SET_FOLLOW_UP_TIMING.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(timing).bind(now).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    pub async fn campaign_status_reason(&self, campaign_id: i64) -> StoreResult<Option<String>> {
        let sql = CAMPAIGN_STATUS_REASON.sql(self);
        let reason: Option<Option<String>> = on_db!(self, pool => sqlx::query_scalar(sql).bind(campaign_id)
            .fetch_optional(pool).await)?;
        Ok(reason.flatten())
    }
}
