-- The first emails of prospects' sequences in campaign $1 (business ids as a JSON array $2), which their follow-ups
-- answer: Message-ID and subject. One lookup per listed business (lateral with a limit, which the planner cannot
-- flatten into a join that scans a large campaign; index sent_emails_campaign_business_kind_step).
select m.business_id, m.message_id, m.subject
from jsonb_array_elements_text(cast($2 as jsonb)) as wanted (value)
cross join lateral (select business_id, message_id, subject from sent_emails
    where campaign_id = $1 and business_id = cast(wanted.value as bigint) and kind = 'first' and step = 0
    limit 1) as m
