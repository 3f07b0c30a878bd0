-- A user's contacts: everyone a campaign message went to or failed for, with their business and the first time
-- each thing happened, most recently contacted first (index sent_emails_user_to_email).
select m.to_email as email, max(b.name) as name, max(b.phone) as phone, max(b.address) as address,
    max(b.website) as website, max(b.category) as category, count(*) as messages,
    cast(sum(case when m.sent_at is not null then 1 else 0 end) as bigint) as sent,
    max(m.sent_at) as last_sent_at, min(m.delivered_at) as delivered_at, min(m.opened_at) as opened_at,
    min(m.clicked_at) as clicked_at, min(m.replied_at) as replied_at, min(m.bounced_at) as bounced_at,
    min(m.spam_reported_at) as spam_reported_at, coalesce(min(m.unsubscribed_at), min(u.created_at)) as unsubscribed_at,
    max(coalesce(m.sent_at, m.created_at)) as last_activity_at
from sent_emails m left join businesses b on b.id = m.business_id left join unsubscribes u on u.email = m.to_email
where m.user_id = $1 and not m.is_test and m.status not in ('queued', 'sending', 'skipped')
group by m.to_email
order by last_activity_at desc, m.to_email limit $2
