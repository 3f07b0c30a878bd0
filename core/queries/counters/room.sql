-- Claims a scope counted in its last $4 days (through day $3): the quota or cap minus this is the room left.
select cast(coalesce(sum(sent), 0) as bigint) from send_counters
where scope = $1 and scope_id = $2 and day > cast($3 as bigint) - cast($4 as bigint)
