-- The latest opens of a campaign's emails by people, with where each business is, for the hour its prospects open
-- mail most (index sent_emails_campaign_id).
select m.opened_at, b.latitude, b.longitude, b.city from sent_emails m
left join businesses b on b.id = m.business_id
where m.campaign_id = $1 and m.opened_at is not null and not m.is_test
order by m.opened_at desc
limit 500
