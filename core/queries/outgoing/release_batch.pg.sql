-- Claimed messages their batch did not finish (ids as a JSON array): one never handed over goes back to the queue
-- and gives its claim back (the caller counts it), with why ($2; none keeps the error it had); one handed over (the
-- batch failed while its content was under way) may have arrived: failed, uncertain, its claim kept, with the
-- Message-ID it went out with. Primary keys: the ids as one array and the status test as `is true`, which no index
-- can serve (see claim_batch.pg.sql: as the constant 'sending' the planner read every message in sending through
-- `sent_emails_sending`; joined with a fenced list it scanned the table before any statistics).
update sent_emails set status = case when h.message is null then 'queued' else 'failed' end,
    uncertain = h.message is not null,
    error = case when h.message is null then coalesce($2, sent_emails.error) else $3 end,
    message_id = coalesce(h.message_id, sent_emails.message_id)
from (select cast(value as bigint) as id from jsonb_array_elements_text(cast($1 as jsonb))) as target
    left join send_handovers h on h.message = target.id and h.handed_by is not null
where sent_emails.id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
    and sent_emails.id = target.id and (sent_emails.status = 'sending') is true
returning user_id, config_id, claimed_at, sent_emails.status
