-- A newly found business with its provenance and de-duplication keys.
insert into businesses (user_id, name, address, city, phone, email, website, category, rating, latitude, longitude,
    provider, provider_place_id, query, source_url, found_at, website_domain, phone_e164, name_address_key,
    email_status, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $16)
returning id
