-- The enrichment job's findings: the best address (an address already known stays, with its verdict), where it was
-- found, its MX verdict, the lookup's outcome (an address known before keeps its status), the social profiles, the
-- time, and why the site could not be read.
update businesses set email = coalesce(email, $2), email_source = coalesce(email_source, $3),
    email_verdict = case when email is null and $2 is not null then $7 else email_verdict end,
    email_status = case when email is null or email_status = 'pending' then $4 else email_status end,
    social_media = $5, enriched_at = $6, website_error = $8
where id = $1
