-- Counts one claim in the day's row ($3) of a scope when its last $4 days hold fewer than $5 claims; no row comes
-- back when there is no room.
insert into send_counters (scope, scope_id, day, sent)
select $1, $2, $3, 1
where (select coalesce(sum(w.sent), 0) from send_counters w
       where w.scope = $1 and w.scope_id = $2 and w.day > cast($3 as bigint) - cast($4 as bigint)) < cast($5 as bigint)
on conflict (scope, scope_id, day) do update set sent = send_counters.sent + 1
    where (select coalesce(sum(w.sent), 0) from send_counters w
           where w.scope = $1 and w.scope_id = $2 and w.day > cast($3 as bigint) - cast($4 as bigint)) < cast($5 as bigint)
returning sent
