-- A batch of tracking events in one statement (a JSON array of [token, kind, url, user agent, time, machine]): one
-- call into SQLite's thread instead of one per event. An open within 10 s of sending, or from a known proxy or
-- scanner (the machine flag), is a machine event. Each event names its message's id, found by the token's index.
-- Rows keep the order the events happened in.
-- jsonb_each: each element comes as JSONB, which the field reads use as it is (json_each renders the element back
-- to text for every field read, then parses it again).
insert into email_events (token, message, kind, url, user_agent, occurred_at, is_machine)
select v.value ->> 0, m.id, v.value ->> 1, v.value ->> 2, v.value ->> 3, v.value ->> 4,
    (v.value ->> 5) or coalesce((v.value ->> 4) - m.sent_at < 10000, false)
from jsonb_each($1) as v left join sent_emails m on m.token = v.value ->> 0
order by v.key
