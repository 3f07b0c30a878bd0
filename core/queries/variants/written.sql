-- How many messages of a step the campaign has written, so new ones continue its rotation of variants (index
-- sent_emails_campaign_business_step).
select cast(count(*) as bigint) from sent_emails where campaign_id = $1 and kind = $2 and step = $3
