-- A campaign as the audit log keeps it (primary key).
select json_object('name', name, 'status', status, 'statusReason', status_reason, 'pausedByUser', paused_by_user)
from campaigns where id = $1
