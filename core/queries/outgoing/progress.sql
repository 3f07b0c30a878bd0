-- A campaign's first emails and follow-ups by state (failed ones that may have arrived apart), for its progress bar
-- (index sent_emails_campaign_status); answers to replies have figures of their own. Messages being sent are
-- queued ones with a claim: the last row counts them (few), for the caller to move from queued to sending.
select status, uncertain, count(*) as count from sent_emails where campaign_id = $1 and kind in ('first', 'follow_up')
group by status, uncertain
union all
select 'sending', false, count(*) from send_claims c join sent_emails m on m.id = c.message
where m.campaign_id = $1 and m.kind in ('first', 'follow_up')
