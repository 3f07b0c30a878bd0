-- Housekeeping of abandoned sign-ins.
delete from oauth_flows where created_at <= $1
