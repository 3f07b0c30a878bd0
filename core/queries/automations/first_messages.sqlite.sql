-- The first emails of a campaign to businesses (ids as a JSON array $2), by business (index
-- sent_emails_campaign_business_kind_step).
select m.business_id, m.id
from json_each($2) as wanted
join sent_emails m on m.campaign_id = $1 and m.business_id = wanted.value
    and m.kind = 'first' and m.step = 0
