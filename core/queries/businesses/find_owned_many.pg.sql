-- Businesses of one owner by id (ids as a JSON array; primary key), for a launch's recipients.
-- The ids as one array and the owner's test as `is true`, which no index can serve: with both as index conditions
-- the planner read every business of the owner before any statistics (see claim_batch.pg.sql).
select b.id, b.name, b.address, b.city, b.phone, b.email, b.website, b.category, b.rating, b.latitude, b.longitude,
    b.social_media, b.provider, b.provider_place_id, b.query, b.source_url, b.found_at, b.email_status, b.email_source,
    b.enriched_at, b.email_verdict, b.website_error
from businesses b where b.id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
    and (b.user_id = $2) is true
