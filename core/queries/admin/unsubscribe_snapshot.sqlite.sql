-- A suppressed address as the audit log keeps it (primary key).
select json_object('email', email, 'source', source, 'createdAt', created_at) from unsubscribes where email = $1
