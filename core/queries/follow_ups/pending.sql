-- Follow-ups waiting to go out, of one user ($1) or everyone's (null), of one campaign ($4) or any (null), due at
-- or before $2, after the cursor ($5, $6: due time and first email's id), at most $3, the soonest first, with what
-- timing them needs (the business's place, the campaign's window and AI timing). Follow-up n of a campaign's
-- template is due `delay_days` after the prospect first opened message n-1 (a person's open: machine opens never set
-- opened_at), or after it was sent when the template times its follow-ups from sending. None is pending when a message of the sequence
-- was answered, bounced, reported as spam or unsubscribed from, the address is on a suppression list (anyone's
-- unsubscribe, or this user's bounces and complaints), the user stopped this prospect's follow-ups, the campaign is
-- paused, archived or stopped by the user, or follow-up n already exists (its row is the exactly-once key).
select p.user_id, p.campaign_id, p.template_id, p.business_id, p.to_email, p.config_id, f.sequence_number as step,
    p.id as original_id, p.subject as original_subject, p.sent_at as original_sent_at,
    p.opened_at as original_opened_at, f.id as follow_up_id, f.subject as follow_up_subject,
    f.body as follow_up_body, f.delay_days, t.follow_up_timing as timing,
    (case when t.follow_up_timing = 'after_send' then p.sent_at else p.opened_at end) + f.delay_days * 86400000
        as due_at,
    b.latitude, b.longitude, b.city, c.window_days, c.window_start, c.window_end, c.window_time_zone,
    c.ai_follow_up_timing
from sent_emails p
join campaigns c on c.id = p.campaign_id
left join businesses b on b.id = p.business_id
join email_templates t on t.id = p.template_id
join follow_up_templates f on f.main_template_id = p.template_id and f.sequence_number = p.step + 1
where p.sent_at is not null and not p.is_test and p.business_id is not null
    and (cast($1 as bigint) is null or p.user_id = $1)
    and (cast($4 as bigint) is null or p.campaign_id = $4)
    and f.is_active
    and ((t.follow_up_timing = 'after_open' and p.opened_at is not null
            and p.opened_at + f.delay_days * 86400000 <= $2)
        or (t.follow_up_timing = 'after_send' and p.sent_at + f.delay_days * 86400000 <= $2))
    and (c.status = 'active' or (c.status = 'completed' and c.status_reason is null))
    and not exists (select 1 from sent_emails n
        where n.campaign_id = p.campaign_id and n.business_id = p.business_id and n.step = p.step + 1)
    and not exists (select 1 from sent_emails s
        where s.campaign_id = p.campaign_id and s.business_id = p.business_id
            and (s.replied_at is not null or s.bounced_at is not null or s.spam_reported_at is not null
                or s.unsubscribed_at is not null))
    and not exists (select 1 from follow_up_stops h where h.campaign_id = p.campaign_id and h.business_id = p.business_id)
    and not exists (select 1 from unsubscribes u where u.email = p.to_email)
    and not exists (select 1 from suppressions x where x.user_id = p.user_id and x.email = p.to_email)
    and ((case when t.follow_up_timing = 'after_send' then p.sent_at else p.opened_at end) + f.delay_days * 86400000 > $5
        or ((case when t.follow_up_timing = 'after_send' then p.sent_at else p.opened_at end) + f.delay_days * 86400000 = $5
            and p.id > $6))
order by due_at, p.id
limit $3
