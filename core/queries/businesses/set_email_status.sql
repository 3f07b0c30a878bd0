-- Marks a business's email lookup (pending while an enrichment job runs).
update businesses set email_status = $2 where id = $1
