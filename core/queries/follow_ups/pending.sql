-- Follow-ups due by their delay at or before $2 (index follow_up_due_at, or follow_up_due_campaign with a
-- campaign), of one user ($1) or everyone's (null), of one campaign ($4) or any (null), after the cursor ($5, $6: due
-- time and first email's id), at most $3, the soonest first, with what timing them needs (the business's place, the
-- campaign's window and AI timing). `finished` marks a sequence that has ended, whose due time the scan clears:
-- follow-up n is written already; a message of the sequence was answered (but for a reply that asked to be written
-- to later), bounced, reported as spam or unsubscribed from; the address is on a suppression list (anyone's
-- unsubscribe, or this user's bounces and complaints); the user stopped this prospect's follow-ups or the campaign;
-- or the campaign, template or follow-up is gone. A paused or archived campaign's follow-ups wait and are not listed.
-- The thread's messages are looked up per follow-up by index (sent_emails_campaign_business_kind_step) as scalar
-- subqueries: as `exists` inside `or`, PostgreSQL hashed all of sent_emails for them (350 ms at a million messages).
select p.user_id, p.campaign_id, p.template_id, p.business_id, p.to_email, p.config_id, p.step + 1 as step,
    p.id as original_id, p.subject as original_subject, p.sent_at as original_sent_at,
    p.opened_at as original_opened_at, coalesce(f.id, 0) as follow_up_id, coalesce(f.subject, '') as follow_up_subject,
    coalesce(f.body, '') as follow_up_body, coalesce(f.delay_days, 0) as delay_days,
    coalesce(t.follow_up_timing, 'after_open') as timing, d.due_at,
    b.latitude, b.longitude, b.city, coalesce(c.window_days, 127) as window_days,
    coalesce(c.window_start, 0) as window_start, coalesce(c.window_end, 1440) as window_end,
    coalesce(c.window_time_zone, 'UTC') as window_time_zone, coalesce(c.ai_follow_up_timing, false) as ai_follow_up_timing,
    (c.id is null or t.id is null or f.id is null or not f.is_active
        or (c.status = 'completed' and c.status_reason is not null)
        or (select 1 from sent_emails n
            where n.campaign_id = p.campaign_id and n.business_id = p.business_id and n.kind = 'follow_up'
                and n.step = p.step + 1 limit 1) is not null
        or (select 1 from sent_emails s
            where s.campaign_id = p.campaign_id and s.business_id = p.business_id
                and ((s.replied_at is not null and not exists (select 1 from inbound_messages i
                        join reply_readings r on r.inbound_id = i.id
                        where i.message_id = s.id and r.action = 'schedule_followup' and r.follow_up_on is not null))
                    or s.bounced_at is not null or s.spam_reported_at is not null or s.unsubscribed_at is not null)
            limit 1) is not null
        or exists (select 1 from follow_up_stops h where h.campaign_id = p.campaign_id and h.business_id = p.business_id)
        or exists (select 1 from unsubscribes u where u.email = p.to_email)
        or exists (select 1 from suppressions x where x.user_id = p.user_id and x.email = p.to_email)) as finished
from follow_up_due d
join sent_emails p on p.id = d.message_id
left join campaigns c on c.id = d.campaign_id
left join email_templates t on t.id = p.template_id
left join follow_up_templates f on f.main_template_id = p.template_id and f.sequence_number = p.step + 1
left join businesses b on b.id = p.business_id
where d.due_at <= $2
    and (cast($1 as bigint) is null or p.user_id = $1)
    and (cast($4 as bigint) is null or d.campaign_id = $4)
    and (c.id is null or c.status in ('active', 'completed'))
    and (d.due_at > $5 or (d.due_at = $5 and d.message_id > $6))
order by d.due_at, d.message_id
limit $3
