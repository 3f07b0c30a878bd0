-- Businesses whose website lookup was asked for and has not answered.
select id from businesses where email_status = 'pending' order by id limit 5000
