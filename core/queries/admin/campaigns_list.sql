-- Campaigns across users for the console, a page in the order asked, `$1` a lowercase `%text%` over the name and the
-- owner's email, `$2` a status ('' for all), with the progress of their first emails and follow-ups (index
-- sent_emails_campaign_status).
select c.id, c.name, u.email as user_email, c.status, c.status_reason, c.paused_by_user, c.created_at,
    (select count(*) from sent_emails m where m.campaign_id = c.id and m.kind in ('first', 'follow_up')
        and m.status = 'queued') as queued,
    (select count(*) from sent_emails m where m.campaign_id = c.id and m.kind in ('first', 'follow_up')
        and m.sent_at is not null) as sent,
    (select count(*) from sent_emails m where m.campaign_id = c.id and m.kind in ('first', 'follow_up')
        and m.status in ('failed', 'bounced')) as failed,
    (select count(*) from sent_emails m where m.campaign_id = c.id and m.kind in ('first', 'follow_up')
        and m.status = 'skipped') as skipped
from campaigns c join users u on u.id = c.user_id
where ($1 = '' or lower(c.name) like $1 or lower(u.email) like $1) and ($2 = '' or c.status = $2)
    and (cast($5 as bigint) is null or c.id = $5)
order by {order}
limit $3 offset $4
