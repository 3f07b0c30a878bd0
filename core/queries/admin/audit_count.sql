-- How many audit entries the filter of admin/audit_list matches.
select count(*) from admin_audit
where ($1 = '' or actor = $1) and ($2 = '' or action = $2) and ($3 = '' or target_type = $3)
