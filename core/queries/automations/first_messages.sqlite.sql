-- The first emails of a campaign to businesses (ids as a JSON array $2), by business (index
-- sent_emails_campaign_business_kind_step), driven by the list: the CROSS JOIN keeps SQLite from turning it into a
-- scan of the campaign that reads the list again for every message (see follow_ups/threads). Whether each was skipped
-- by a stop ($3: the stop's reason), which a relaunch sends after all.
select m.business_id, m.id, m.status = 'skipped' and coalesce(m.error = $3, false)
from json_each($2) as wanted
cross join sent_emails m
where m.campaign_id = $1 and m.business_id = wanted.value and m.kind = 'first' and m.step = 0
