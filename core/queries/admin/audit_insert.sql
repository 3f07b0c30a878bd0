-- An administrator's action (written first in the action's transaction, so that on SQLite the transaction holds the
-- write lock before it reads the record; `admin/audit_update` adds the record before and after).
insert into admin_audit (actor, action, target_type, target_id, reason, created_at)
values ($1, $2, $3, $4, $5, $6)
returning id
