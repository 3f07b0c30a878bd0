-- The first emails of a campaign to businesses (ids as a JSON array $2), by business (index
-- sent_emails_campaign_business_kind_step; lateral, one lookup each). Whether each was skipped by a stop ($3: the
-- stop's reason), which a relaunch sends after all.
select m.business_id, m.id, m.status = 'skipped' and coalesce(m.error = $3, false)
from jsonb_array_elements_text(cast($2 as jsonb)) as wanted (value)
cross join lateral (select business_id, id, status, error from sent_emails
    where campaign_id = $1 and business_id = cast(wanted.value as bigint) and kind = 'first' and step = 0
    limit 1) as m
