-- An automation's campaign's counters: emails sent, opened and replied (campaign_daily_stats).
select cast(coalesce(sum(s.sent), 0) as bigint), cast(coalesce(sum(s.opened), 0) as bigint),
    cast(coalesce(sum(s.replied), 0) as bigint)
from campaign_daily_stats s where s.campaign_id = $1
