-- The emails of a prospect's thread in a campaign, oldest first (index
-- sent_emails_campaign_business_kind_step).
select subject, coalesce(text_body, html_body, '') from sent_emails
where campaign_id = $1 and business_id = $2 and sent_at is not null and not is_test
order by sent_at, id
