-- A user's contacts (kept by the triggers of migration 0013) with their latest business, most recently contacted
-- first (index contacts_user_activity); an address unsubscribed anywhere shows as unsubscribed.
select c.email, b.name, b.phone, b.address, b.website, b.category, c.messages, c.sent, c.last_sent_at,
    c.delivered_at, c.opened_at, c.clicked_at, c.replied_at, c.bounced_at, c.spam_reported_at,
    coalesce(c.unsubscribed_at, u.created_at) as unsubscribed_at, c.last_activity_at, c.interest
from contacts c left join businesses b on b.id = c.business_id left join unsubscribes u on u.email = c.email
where c.user_id = $1
order by c.last_activity_at desc, c.email limit $2
