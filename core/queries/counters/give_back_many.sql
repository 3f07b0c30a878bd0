-- Claims that did not send (back in the queue) no longer count: $4 of them, taken on day $3.
update send_counters set sent = case when sent > $4 then sent - $4 else 0 end
where scope = $1 and scope_id = $2 and day = $3
