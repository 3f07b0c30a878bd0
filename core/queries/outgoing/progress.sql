-- A campaign's first emails and follow-ups by state (failed ones that may have arrived apart), for its progress bar
-- (index sent_emails_campaign_status); answers to replies have figures of their own.
select status, uncertain, count(*) as count from sent_emails where campaign_id = $1 and kind in ('first', 'follow_up')
group by status, uncertain
