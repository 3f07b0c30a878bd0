-- A campaign's messages by state, for its progress bar (index sent_emails_campaign_status).
select status, count(*) as count from sent_emails where campaign_id = $1 group by status
