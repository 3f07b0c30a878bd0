-- The user's business that a candidate duplicates: same provider place, website domain, phone or name and address
-- (indexes businesses_user_*). Null keys never match.
select id from businesses
where user_id = $1
    and (provider_place_id = $2 or website_domain = $3 or phone_e164 = $4 or name_address_key = $5)
order by id
limit 1
