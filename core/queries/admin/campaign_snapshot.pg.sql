-- A campaign as the audit log keeps it (primary key).
select cast(json_build_object('name', name, 'status', status, 'statusReason', status_reason, 'pausedByUser', paused_by_user) as text)
from campaigns where id = $1
