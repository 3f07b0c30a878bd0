-- Claimed messages their batch did not finish (ids as a JSON array): one never handed over stays queued (its claim,
-- deleted next in the same transaction, is given back by the caller) with why ($2; none keeps the error it had);
-- one handed over (the batch failed while its content was under way) may have arrived: failed, uncertain, its claim
-- kept on the day counters, with the Message-ID it went out with and when it was claimed. Primary keys.
update sent_emails set status = case when h.message is null then 'queued' else 'failed' end,
    uncertain = h.message is not null,
    error = case when h.message is null then coalesce($2, sent_emails.error) else $3 end,
    message_id = coalesce(h.message_id, sent_emails.message_id),
    claimed_at = case when h.message is null then sent_emails.claimed_at else c.claimed_at end
from (select value as id from json_each($1)) as target
    join send_claims c on c.message = target.id
    left join send_handovers h on h.message = target.id and h.handed_by is not null
where sent_emails.id = target.id and sent_emails.status = 'queued'
returning id, user_id, config_id, status
