-- The provider refused the message (or it was suppressed); the reason is kept. A claimed one gives its claim back.
update sent_emails set status = $2, error = $3, provider = $4 where id = $1 and status in ('queued', 'sending')
returning user_id, config_id, claimed_at
