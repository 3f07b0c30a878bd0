-- Businesses an automation may email: found by its searches (its campaign's), with an address, never emailed by the
-- user in any campaign (index sent_emails_user_to_email), not suppressed; one business per address (the earliest
-- found: two branches of a chain may share one mailbox), the earliest found first, at most $3.
select min(b.id) as id from businesses b
where b.user_id = $1
    and b.id in (select r.business_id from search_results r join searches s on s.id = r.search_id where s.campaign_id = $2)
    and b.email is not null and b.email <> ''
    and not exists (select 1 from sent_emails m where m.user_id = $1 and m.to_email = lower(b.email) and not m.is_test)
    and not exists (select 1 from unsubscribes u where u.email = lower(b.email))
    and not exists (select 1 from suppressions x where x.user_id = $1 and x.email = lower(b.email))
group by lower(b.email)
order by min(b.id)
limit $3
