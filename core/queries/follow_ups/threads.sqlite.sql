-- The first emails of prospects' sequences in campaign $1 (business ids as a JSON array $2), which their follow-ups
-- answer: Message-ID and subject. Driven by the list, one lookup each (index
-- sent_emails_campaign_business_kind_step): the CROSS JOIN keeps SQLite from reordering the loops, as it did at a
-- million messages, scanning the campaign and reading the JSON list again for every message (32 follow-ups/s).
select m.business_id, m.message_id, m.subject
from json_each($2) as wanted
cross join sent_emails m
where m.campaign_id = $1 and m.business_id = wanted.value and m.kind = 'first' and m.step = 0
