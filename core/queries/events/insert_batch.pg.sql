-- A batch of tracking events in one statement (arrays of equal length); an open within 10 s of sending, or from a
-- known proxy or scanner (the machine flag), is a machine event. Each event's message is looked up by its token, a
-- subquery per event: planned as a join, the statement read every sent message once its plan was kept from when
-- there were few (core/tests/core/send_plans.rs).
insert into email_events (token, kind, url, user_agent, occurred_at, is_machine)
select v.token, v.kind, v.url, v.user_agent, v.occurred_at,
    v.machine or coalesce((select v.occurred_at - m.sent_at < 10000 from sent_emails m where m.token = v.token), false)
from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::boolean[]) with ordinality
    as v (token, kind, url, user_agent, occurred_at, machine, position)
-- Rows keep the order the events happened in.
order by v.position
