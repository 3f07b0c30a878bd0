-- The audit log, a page of it in the order asked (index admin_audit_created), filtered by actor, action or target.
select id, actor, action, target_type, target_id, before, after, reason, created_at from admin_audit
where ($1 = '' or actor = $1) and ($2 = '' or action = $2) and ($3 = '' or target_type = $3)
order by {order}
limit $4 offset $5
