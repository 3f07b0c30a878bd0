-- A website lookup is queued for a business: its email is pending while it runs, unless it has one already (then
-- the lookup reads the site for its icebreaker and social profiles, and the address stays as it is).
update businesses set email_status = 'pending' where id = $1 and email is null
