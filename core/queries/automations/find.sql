-- One automation of its owner ($2), or anyone's when $2 is null (a run), with its emails (see automations/list); today is $3.
select a.id, a.user_id, a.campaign_id, a.campaign_name, a.business_type, a.geographic_area, a.radius,
    a.max_businesses_per_day, a.email_template_id, a.max_total_emails, a.campaign_duration_minutes, a.is_active,
    a.schedule, a.last_run_at, a.ended_reason, a.created_at,
    (select count(*) from sent_emails m where m.campaign_id = a.campaign_id and m.kind = 'first'
        and m.status not in ('skipped', 'failed')) as emails_written,
    (select count(*) from sent_emails m where m.campaign_id = a.campaign_id and m.kind in ('first', 'follow_up')
        and m.sent_at is not null) as emails_sent,
    (select count(*) from sent_emails m where m.campaign_id = a.campaign_id and m.kind in ('first', 'follow_up')
        and m.status = 'queued') as emails_waiting,
    exists (select 1 from automation_runs r where r.automation_id = a.id and r.run_day = cast($3 as text))
        as ran_today
from automations a where a.id = $1 and (cast($2 as bigint) is null or a.user_id = $2)
