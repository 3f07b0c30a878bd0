-- A batch of tracking events in one statement (arrays of equal length), each with its message's id; an open within
-- 10 s of sending, or from a known proxy or scanner (the machine flag), is a machine event. Each message of the batch
-- is looked up once by its token, a lateral subquery per message (a message opened a hundred times in a batch is one
-- lookup): planned as a join, the statement read every sent message once its plan was kept from when there were few
-- (core/tests/core/send_plans.rs); `limit 1` keeps the subquery from being pulled up into such a join (the token is
-- unique). `materialized` keeps the lookups to the batch's messages: inlined, they ran again for every event.
with v as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::boolean[]) with ordinality
        as v (token, kind, url, user_agent, occurred_at, machine, position)
), sent as materialized (
    select d.token, m.id, m.sent_at
    from (select distinct token from v) d
        left join lateral (select m.id, m.sent_at from sent_emails m where m.token = d.token limit 1) m on true
)
insert into email_events (token, message, kind, url, user_agent, occurred_at, is_machine)
select v.token, s.id, v.kind, v.url, v.user_agent, v.occurred_at,
    v.machine or coalesce(v.occurred_at - s.sent_at < 10000, false)
from v join sent s on s.token = v.token
-- Rows keep the order the events happened in.
order by v.position
