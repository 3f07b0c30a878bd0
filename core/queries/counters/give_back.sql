-- A claim that did not send (refused, or back in the queue) no longer counts.
update send_counters set sent = sent - 1 where scope = $1 and scope_id = $2 and day = $3 and sent > 0
