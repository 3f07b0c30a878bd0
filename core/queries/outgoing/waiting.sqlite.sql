-- Messages waiting to be sent (queued, no claim) that were queued before $1, of campaigns neither paused (they wait
-- for the resume) nor archived, and of no campaign; campaign by campaign (index sent_emails_campaign_status). The
-- campaigns come first (`cross join` keeps SQLite from turning the join around): SQLite otherwise walked the index
-- of every message by campaign and id, to skip sorting the few it returns (core/tests/core/recovery_plans.rs).
select m.id, m.campaign_id from campaigns c
cross join sent_emails m
where m.campaign_id = c.id and m.status = 'queued' and c.status not in ('paused', 'archived') and m.created_at < $1
    and not exists (select 1 from send_claims s where s.message = m.id)
    -- A follow-up or answer waiting for the mailbox of its thread gets a job when that mailbox can send again.
    and (m.pooled or m.config_id is null or not exists (select 1 from email_configs e
        where e.id = m.config_id and (e.out_at is not null or e.removed_at is not null or not e.is_active)))
    and not (m.kind = 'follow_up' and m.config_id is not null
        and exists (select 1 from campaign_senders p where p.campaign_id = m.campaign_id)
        and not exists (select 1 from campaign_senders p where p.campaign_id = m.campaign_id
            and p.config_id = m.config_id))
union all
select id, campaign_id from sent_emails m where campaign_id is null and status = 'queued' and created_at < $1
    and not exists (select 1 from send_claims s where s.message = m.id)
order by 2, 1
limit 20000
