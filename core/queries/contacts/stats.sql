-- A user's contact stats (B §3): contacts reached, and how many of them opened, replied, bounced or reported spam;
-- clicks are every click on the user's campaign links (from the daily counters).
select cast(coalesce(sum(case when c.sent > 0 then 1 else 0 end), 0) as bigint) as contacted,
    count(c.opened_at) as opened, count(c.replied_at) as replied, count(c.bounced_at) as bounced,
    count(c.spam_reported_at) as spam,
    (select cast(coalesce(sum(s.clicks), 0) as bigint) from campaign_daily_stats s
        join campaigns k on k.id = s.campaign_id where k.user_id = $1) as clicks
from contacts c where c.user_id = $1
