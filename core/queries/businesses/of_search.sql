-- The businesses of one search in the order found (primary key of search_results).
select b.id, b.name, b.address, b.city, b.phone, b.email, b.website, b.category, b.rating, b.latitude, b.longitude, b.social_media, b.provider, b.provider_place_id, b.query, b.source_url, b.found_at, b.email_status, b.email_source, b.enriched_at, b.email_verdict, b.website_error
from search_results r join businesses b on b.id = r.business_id
where r.search_id = $1
order by r.position
