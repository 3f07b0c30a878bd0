-- One campaign of its owner (primary key; another user's id finds nothing).
select c.id, c.user_id, c.name, c.status, c.category, c.business_type, c.geographic_area, c.radius, c.max_results, c.business_ids, c.ai_education_text, c.email_from_name, c.email_from_address, c.created_at, c.updated_at,
    (select count(*) from sent_emails s where s.campaign_id = c.id and s.sent_at is not null) as emails_sent
from campaigns c where c.id = $1 and c.user_id = $2
