-- Admin list, newest first, optionally only addresses containing $1 (index unsubscribes_created_at).
select email, source, created_at from unsubscribes
where ($1 = '' or email like '%' || $1 || '%')
order by created_at desc, email
limit $2 offset $3
