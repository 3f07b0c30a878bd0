-- A user's campaigns (or one of them: $2) with their counters summed over all days, and the conversations the user
-- labelled "meeting booked" in the inbox (index inbox_threads_campaign_label), newest first; whether its emails
-- carry the open pixel (a plain-text email has none).
select c.id, c.name, c.status, c.status_reason, c.business_type, c.geographic_area, c.radius, c.created_at,
    (c.track_opens and not c.plain_text) as track_opens,
    cast(coalesce(sum(s.messages), 0) as bigint) as messages, cast(coalesce(sum(s.sent), 0) as bigint) as sent,
    cast(coalesce(sum(s.failed), 0) as bigint) as failed, cast(coalesce(sum(s.skipped), 0) as bigint) as skipped,
    cast(coalesce(sum(s.delivered), 0) as bigint) as delivered, cast(coalesce(sum(s.opened), 0) as bigint) as opened,
    cast(coalesce(sum(s.clicked), 0) as bigint) as clicked, cast(coalesce(sum(s.replied), 0) as bigint) as replied,
    cast(coalesce(sum(s.bounced), 0) as bigint) as bounced, cast(coalesce(sum(s.spam), 0) as bigint) as spam,
    cast(coalesce(sum(s.unsubscribed), 0) as bigint) as unsubscribed,
    cast(coalesce(sum(s.human_opens), 0) as bigint) as human_opens,
    cast(coalesce(sum(s.machine_opens), 0) as bigint) as machine_opens,
    cast(coalesce(sum(s.clicks), 0) as bigint) as clicks,
    (select count(*) from inbox_threads t where t.campaign_id = c.id and t.label = 'meeting_booked') as meetings_booked
from campaigns c left join campaign_daily_stats s on s.campaign_id = c.id
where c.user_id = $1 and (cast($2 as bigint) is null or c.id = $2)
group by c.id, c.name, c.status, c.status_reason, c.business_type, c.geographic_area, c.radius, c.created_at,
    c.track_opens, c.plain_text
order by c.created_at desc, c.id desc
