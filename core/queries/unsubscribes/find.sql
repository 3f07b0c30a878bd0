-- Is this address suppressed? (primary key)
select email, source, created_at from unsubscribes where email = $1
