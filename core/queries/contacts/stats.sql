-- A user's contact stats (B §3): contacts reached, and how many of them opened, replied, bounced or reported spam;
-- clicks are every click on the user's campaign links (from the daily counters).
select count(*) as contacted,
    cast(coalesce(sum(case when c.opened_at is not null then 1 else 0 end), 0) as bigint) as opened,
    cast(coalesce(sum(case when c.replied_at is not null then 1 else 0 end), 0) as bigint) as replied,
    cast(coalesce(sum(case when c.bounced_at is not null then 1 else 0 end), 0) as bigint) as bounced,
    cast(coalesce(sum(case when c.spam_reported_at is not null then 1 else 0 end), 0) as bigint) as spam,
    (select cast(coalesce(sum(s.clicks), 0) as bigint) from campaign_daily_stats s
        join campaigns k on k.id = s.campaign_id where k.user_id = $1) as clicks
from (select m.to_email, max(m.opened_at) as opened_at, max(m.replied_at) as replied_at,
        max(m.bounced_at) as bounced_at, max(m.spam_reported_at) as spam_reported_at
    from sent_emails m where m.user_id = $1 and not m.is_test and m.sent_at is not null group by m.to_email) c
