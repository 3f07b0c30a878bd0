-- A user's sends, opens and replies for templates of one objective and tone (the composer's estimates).
select count(*) as sends,
    coalesce(sum(case when s.status in ('opened', 'replied') then 1 else 0 end), 0) as opened,
    coalesce(sum(case when s.status = 'replied' then 1 else 0 end), 0) as replied
from sent_emails s join email_templates t on t.id = s.template_id
where s.user_id = $1 and t.objective = $2 and t.tone = $3 and s.sent_at is not null
