-- The provider refused the message (or it was suppressed); the reason is kept.
update sent_emails set status = $2, error = $3, provider = $4 where id = $1 and status in ('queued', 'sending')
