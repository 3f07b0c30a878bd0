-- A page of a user's inbox threads ($1), the latest reply first, after the cursor ($2, $3: the last row's reply time
-- and id; index inbox_threads_list), done ($4) or not, with the filters that are set: $5 unread, interested, awaiting
-- or escalated; $6 campaign; $7 sender; $8 label; $9 a LIKE pattern over the prospect, business, subject and
-- replies (lowercase); $10 rows. The AI's reading is the latest reply's; whether an answer waits is read from the
-- answers (index reply_answers_thread_waiting; the filter: reply_answers_user).
-- A search reads the newest $11 threads in order first, each reply probed by the thread's index (a common word fills a
-- page there); when they hold less than a page, it runs again with $11 null and collects the matching threads through
-- the trigram indexes of migration 40 into an array, so they are read by key (a name: a handful of rows, not every
-- thread of the user). The probe is a scalar subquery: an EXISTS would be planned as a hash of every match.
select t.id, t.root_message_id, t.last_inbound_id, t.campaign_id, c.name as campaign_name, t.business_id, b.name as business_name, t.config_id,
    t.to_email, t.subject, t.last_reply_at, t.last_from, t.excerpt, t.replies, t.unread, t.done, t.label,
    r.sentiment, r.action, r.escalations,
    exists (select 1 from reply_answers a where a.thread_id = t.id and a.status = 'awaiting_approval') as awaiting
from inbox_threads t
left join campaigns c on c.id = t.campaign_id
left join businesses b on b.id = t.business_id
left join reply_readings r on r.inbound_id = t.last_inbound_id
where t.user_id = $1 and t.done = $4
    and (t.last_reply_at, t.id) < (cast($2 as bigint), cast($3 as bigint))
    and (cast($11 as bigint) is null or (t.last_reply_at, t.id) >= (
        coalesce((select x.last_reply_at from inbox_threads x where x.user_id = $1 and x.done = $4
            and (x.last_reply_at, x.id) < (cast($2 as bigint), cast($3 as bigint))
            order by x.last_reply_at desc, x.id desc offset $11 - 1 limit 1), -9223372036854775807),
        coalesce((select x.id from inbox_threads x where x.user_id = $1 and x.done = $4
            and (x.last_reply_at, x.id) < (cast($2 as bigint), cast($3 as bigint))
            order by x.last_reply_at desc, x.id desc offset $11 - 1 limit 1), -9223372036854775807)))
    and (cast($5 as text) is null
        or ($5 = 'unread' and t.unread)
        or ($5 = 'interested' and (t.label in ('interested', 'meeting_booked')
            or (t.label is null and r.action = 'mark_interested')))
        or ($5 = 'escalated' and r.escalations <> '[]')
        or ($5 = 'awaiting' and t.id in (select a.thread_id from reply_answers a
            where a.user_id = $1 and a.status = 'awaiting_approval')))
    and (cast($6 as bigint) is null or t.campaign_id = $6)
    and (cast($7 as bigint) is null or t.config_id = $7)
    and (cast($8 as text) is null or t.label = $8)
    and (cast($9 as text) is null
        or (cast($11 as bigint) is not null and (lower(t.to_email || ' ' || t.subject) like $9 escape '\'
            or lower(coalesce(b.name, '')) like $9 escape '\'
            or (select i.id from inbound_messages i where i.thread_id = t.id and lower(i.body) like $9 escape '\'
                limit 1) is not null))
        or (cast($11 as bigint) is null and t.id = any(array(
            select s.id from inbox_threads s where s.user_id = $1 and lower(s.to_email || ' ' || s.subject) like $9 escape '\'
            union all
            select s.id from inbox_threads s join businesses n on n.id = s.business_id
            where s.user_id = $1 and n.user_id = $1 and lower(n.name) like $9 escape '\'
            union all
            select i.thread_id from inbound_messages i where i.user_id = $1 and lower(i.body) like $9 escape '\'))))
order by t.last_reply_at desc, t.id desc
limit $10
