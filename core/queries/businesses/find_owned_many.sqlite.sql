-- Businesses of one owner by id (ids as a JSON array; primary key), for a launch's recipients.
-- `+` keeps the owner's indexes out of it: with `user_id` as an index's condition, SQLite read every business of
-- the owner to keep the batch's (a million for 200 in the sending benchmark over a million earlier messages).
select b.id, b.name, b.address, b.city, b.phone, b.email, b.website, b.category, b.rating, b.latitude, b.longitude,
    b.social_media, b.provider, b.provider_place_id, b.query, b.source_url, b.found_at, b.email_status, b.email_source,
    b.enriched_at, b.email_verdict, b.website_error
from businesses b where b.id in (select value from json_each($1)) and +b.user_id = $2
