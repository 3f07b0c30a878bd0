-- Counts $4 claims in the day's row of a scope (the room was checked in the same transaction).
insert into send_counters (scope, scope_id, day, sent) values ($1, $2, $3, $4)
on conflict (scope, scope_id, day) do update set sent = send_counters.sent + excluded.sent
