-- A user's automations, newest first, with the emails each sent so far (index automations_user).
select a.id, a.user_id, a.campaign_id, a.campaign_name, a.business_type, a.geographic_area, a.radius,
    a.max_businesses_per_day, a.email_template_id, a.max_total_emails, a.campaign_duration_minutes, a.is_active,
    a.schedule, a.last_run_at, a.ended_reason, a.created_at,
    (select count(*) from sent_emails m where m.campaign_id = a.campaign_id and m.kind = 'first'
        and m.status not in ('skipped', 'failed')) as emails_sent
from automations a where a.user_id = $1
order by a.created_at desc, a.id desc
