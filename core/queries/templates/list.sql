-- A user's templates, newest first (index email_templates_user_created).
select t.id, t.user_id, t.name, t.subject, t.body, t.objective, t.tone, t.email_signature, t.follow_up_timing,
    t.created_at, t.updated_at,
    (select count(*) from sent_emails s where s.template_id = t.id and s.sent_at is not null and not s.is_test)
        as emails_sent,
    (select count(*) from sent_emails s where s.template_id = t.id and s.opened_at is not null and not s.is_test)
        as emails_opened,
    (select count(*) from sent_emails s where s.template_id = t.id and s.replied_at is not null and not s.is_test)
        as emails_replied
from email_templates t where t.user_id = $1
order by t.created_at desc, t.id desc
