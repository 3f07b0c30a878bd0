-- Each sender's use (ids as a JSON array): what it sent on day $2 and on how many earlier days it sent (its ramp-up
-- rises each day it has sent), from the daily counters (primary key scope, scope_id, day).
select c.scope_id, cast(coalesce(sum(case when c.day = cast($2 as bigint) then c.sent else 0 end), 0) as bigint) as used_today,
    cast(coalesce(sum(case when c.day < $2 and c.sent > 0 then 1 else 0 end), 0) as bigint) as days_sent
from send_counters c
where c.scope = 'config' and c.scope_id in (select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb)))
group by c.scope_id
