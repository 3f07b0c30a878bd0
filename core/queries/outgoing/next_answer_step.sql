-- The number of the next answer in a campaign's thread with a business (index sent_emails_campaign_business_kind_step).
select cast(coalesce(max(step), 0) + 1 as integer) from sent_emails where campaign_id = $1 and business_id = $2 and kind = 'answer'
