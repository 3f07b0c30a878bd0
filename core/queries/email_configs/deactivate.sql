-- A sender that the provider refused (revoked grant, bad password) stops being offered, with the reason.
update email_configs set is_active = false, status_message = $2, updated_at = $3 where id = $1
