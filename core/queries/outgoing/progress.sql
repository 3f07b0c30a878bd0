-- A campaign's messages by state (failed ones that may have arrived apart), for its progress bar (index
-- sent_emails_campaign_status).
select status, uncertain, count(*) as count from sent_emails where campaign_id = $1 group by status, uncertain
