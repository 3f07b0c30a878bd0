-- The user's business that a candidate duplicates (indexes businesses_user_*; null keys never match): the same
-- provider place, or the same website domain, phone or name and address unless both have an email address and the
-- addresses differ (two people of one company are two leads). `Candidate::same_business` is the same rule in memory.
select id from businesses
where user_id = $1
    and (provider_place_id = $2
        or ((website_domain = $3 or phone_e164 = $4 or name_address_key = $5)
            and (email is null or cast($6 as text) is null or lower(email) = lower(cast($6 as text)))))
order by id
limit 1
