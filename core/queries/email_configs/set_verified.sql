-- The outcome of the last domain check (verify-email-config): verified or not, and what is missing.
update email_configs set is_verified = $2, status_message = $3, updated_at = $4 where id = $1
