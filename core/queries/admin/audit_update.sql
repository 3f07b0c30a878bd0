-- Completes an audit entry with the record before and after the change, in the change's transaction.
update admin_audit set before = $2, after = $3 where id = $1
