-- Businesses whose website lookup failed (the site could not be read) or never finished, oldest first.
select id from businesses
where website is not null and (email_status = 'pending' or (email_status = 'not_found' and website_error is not null))
order by id
