-- The sender's server could not be reached or refused sign-in once more: its failures in a row.
update email_configs set failure_streak = failure_streak + 1, updated_at = $2 where id = $1
returning failure_streak
