-- The sender's server took a message: its failures in a row start again from none.
update email_configs set failure_streak = 0 where id = $1 and failure_streak > 0
