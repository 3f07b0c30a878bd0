-- A campaign that completed its first emails sends again when follow-ups are queued (a stopped one never is).
update campaigns set status = 'active', updated_at = $2
where id = $1 and status = 'completed' and status_reason is null
