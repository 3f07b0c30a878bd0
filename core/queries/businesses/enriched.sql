-- The enrichment job's findings: the best address (an address already known stays), where it was found, the
-- lookup's outcome, the social profiles and the time.
update businesses set email = coalesce(email, $2), email_source = coalesce(email_source, $3), email_status = $4,
    social_media = $5, enriched_at = $6
where id = $1
