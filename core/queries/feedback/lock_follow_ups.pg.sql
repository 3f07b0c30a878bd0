-- Before a prospect's queued follow-ups and answers are skipped (`feedback/stop_follow_ups`): locks them as a claim
-- does, so that the skip, a statement of its own after this one, sees every claim made before.
select id from sent_emails
where campaign_id = $1 and business_id = $2 and kind in ('follow_up', 'answer') and status = 'queued'
for no key update
