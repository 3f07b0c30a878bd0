-- A user's campaigns, newest first, with how many emails each sent (index campaigns_user_created).
select c.id, c.user_id, c.name, c.status, c.category, c.business_type, c.geographic_area, c.radius, c.max_results, c.business_ids, c.ai_education_text, c.email_from_name, c.email_from_address, c.builder_step, c.search_id, c.template_id,
    c.email_config_id, c.reply_to, c.sales_aggressiveness, c.certainty_threshold, c.auto_reply_min_percent, c.reply_timing, c.ai_follow_up_timing,
    c.track_opens, c.track_clicks, c.plain_text,
    c.window_days, c.window_start, c.window_end, c.window_time_zone, c.human_approval, c.auto_reply_max_per_day,
    c.created_at, c.updated_at,
    (select cast(coalesce(sum(s.sent), 0) as bigint) from campaign_daily_stats s where s.campaign_id = c.id)
        as emails_sent
from campaigns c where c.user_id = $1
order by c.created_at desc, c.id desc
