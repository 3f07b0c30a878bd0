-- A suppressed address as the audit log keeps it (primary key).
select cast(json_build_object('email', email, 'source', source, 'createdAt', created_at) as text) from unsubscribes where email = $1
