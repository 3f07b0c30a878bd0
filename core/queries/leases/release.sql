-- A worker that stops cleanly gives its lease back; so do leases long expired (their messages were reconciled).
delete from send_leases where worker = $1 or expires_at < $2
