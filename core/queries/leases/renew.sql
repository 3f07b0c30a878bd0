-- A worker process's lease, taken or renewed until $2.
insert into send_leases (worker, expires_at) values ($1, $2)
on conflict (worker) do update set expires_at = excluded.expires_at
