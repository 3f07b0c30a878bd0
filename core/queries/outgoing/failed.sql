-- The provider refused the message (or it was suppressed); the reason is kept. A claimed one keeps when it was
-- claimed (the day its failure counts on); its claim goes next, in the same transaction (`outgoing/drop_claims`).
update sent_emails set status = $2, error = $3, provider = $4,
    claimed_at = coalesce((select c.claimed_at from send_claims c where c.message = $1), claimed_at)
where id = $1 and status = 'queued'
returning user_id, config_id
