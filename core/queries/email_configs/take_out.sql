-- Takes a sender out of rotation with why and when; only the first time counts (returns its id then).
update email_configs set out_at = $2, out_reason = $3, updated_at = $2 where id = $1 and out_at is null
returning id
