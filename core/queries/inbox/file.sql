-- A reply (or an automatic answer) to message $1 arrived at $2 from $3 ($4: its first words): the thread of that
-- message's first email is filed, or brought back to the top, unread and not done. Its id.
insert into inbox_threads (user_id, root_message_id, campaign_id, business_id, config_id, to_email, subject,
    last_reply_at, last_from, excerpt, replies)
select root.user_id, root.id, root.campaign_id, root.business_id, root.config_id, root.to_email, root.subject,
    cast($2 as bigint), cast($3 as text), cast($4 as text), 1
from sent_emails root
where root.id = coalesce((select f.id from sent_emails f join sent_emails m on f.campaign_id = m.campaign_id
    and f.business_id = m.business_id where m.id = $1 and f.kind = 'first'), $1)
on conflict (root_message_id) do update set last_reply_at = excluded.last_reply_at, last_from = excluded.last_from,
    excerpt = excluded.excerpt, replies = inbox_threads.replies + 1, unread = true, done = false
returning id
