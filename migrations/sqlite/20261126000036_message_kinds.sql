-- A message says what it is to its recipient (issues 30 and 31): its first email, follow-up n, answer n to the
-- prospect's replies, or a test send. Answers were steps 100 and above, so they showed as "Follow-up #100" and counted
-- as campaign emails (halving a campaign's open rate); now they are numbered among answers, from 1.
drop trigger sent_emails_daily_messages;
drop trigger sent_emails_daily_changes;
drop trigger email_events_daily;
alter table sent_emails add column kind text not null default 'first';
-- Only the rows that are no first email (the column's default) are written.
update sent_emails set kind = case when is_test then 'test' when step >= 100 then 'answer' else 'follow_up' end
where is_test or step > 0;
-- One message per (campaign, business, kind, step).
drop index sent_emails_campaign_business_step;
update sent_emails set step = step - 99 where kind = 'answer';
create unique index sent_emails_campaign_business_kind_step on sent_emails (campaign_id, business_id, kind, step);

-- Answers left the campaigns' daily figures: they have figures of their own.
update campaign_daily_stats set
    messages = messages - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.created_at / 86400000 = campaign_daily_stats.day),
    sent = sent - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.sent_at / 86400000 = campaign_daily_stats.day),
    failed = failed - (select count(*) from sent_emails m where m.kind = 'answer' and m.status = 'failed'
        and m.campaign_id = campaign_daily_stats.campaign_id
        and coalesce(m.claimed_at, m.created_at) / 86400000 = campaign_daily_stats.day),
    skipped = skipped - (select count(*) from sent_emails m where m.kind = 'answer' and m.status = 'skipped'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.created_at / 86400000 = campaign_daily_stats.day),
    delivered = delivered - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.delivered_at / 86400000 = campaign_daily_stats.day),
    opened = opened - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.opened_at / 86400000 = campaign_daily_stats.day),
    clicked = clicked - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.clicked_at / 86400000 = campaign_daily_stats.day),
    replied = replied - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.replied_at / 86400000 = campaign_daily_stats.day),
    bounced = bounced - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.bounced_at / 86400000 = campaign_daily_stats.day),
    spam = spam - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.spam_reported_at / 86400000 = campaign_daily_stats.day),
    unsubscribed = unsubscribed - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id
        and m.unsubscribed_at / 86400000 = campaign_daily_stats.day),
    human_opens = human_opens - (select count(*) from email_events e join sent_emails m on m.token = e.token
        where m.kind = 'answer' and e.kind = 'open' and not e.is_machine
        and m.campaign_id = campaign_daily_stats.campaign_id and e.occurred_at / 86400000 = campaign_daily_stats.day),
    machine_opens = machine_opens - (select count(*) from email_events e join sent_emails m on m.token = e.token
        where m.kind = 'answer' and e.kind = 'open' and e.is_machine
        and m.campaign_id = campaign_daily_stats.campaign_id and e.occurred_at / 86400000 = campaign_daily_stats.day),
    clicks = clicks - (select count(*) from email_events e join sent_emails m on m.token = e.token
        where m.kind = 'answer' and e.kind = 'click'
        and m.campaign_id = campaign_daily_stats.campaign_id and e.occurred_at / 86400000 = campaign_daily_stats.day)
where campaign_id in (select campaign_id from sent_emails where kind = 'answer');

-- The daily figures count campaign mail only: no test send, and no answer.

create trigger sent_emails_daily_messages after insert on sent_emails
when new.campaign_id is not null and not new.is_test and new.kind <> 'answer'
begin
    insert into campaign_daily_stats (campaign_id, day, messages) values (new.campaign_id, new.created_at / 86400000, 1)
    on conflict (campaign_id, day) do update set messages = messages + 1;
end;

create trigger sent_emails_daily_changes after update on sent_emails
when new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, sent) select new.campaign_id, new.sent_at / 86400000, 1
        where old.sent_at is null and new.sent_at is not null
        on conflict (campaign_id, day) do update set sent = sent + 1;
    insert into campaign_daily_stats (campaign_id, day, failed) select new.campaign_id, coalesce(new.claimed_at, old.claimed_at, new.created_at) / 86400000, 1
        where new.status = 'failed' and old.status <> 'failed'
        on conflict (campaign_id, day) do update set failed = failed + 1;
    insert into campaign_daily_stats (campaign_id, day, skipped) select new.campaign_id, new.created_at / 86400000, 1
        where new.status = 'skipped' and old.status <> 'skipped'
        on conflict (campaign_id, day) do update set skipped = skipped + 1;
    insert into campaign_daily_stats (campaign_id, day, delivered) select new.campaign_id, new.delivered_at / 86400000, 1
        where old.delivered_at is null and new.delivered_at is not null
        on conflict (campaign_id, day) do update set delivered = delivered + 1;
    insert into campaign_daily_stats (campaign_id, day, opened) select new.campaign_id, new.opened_at / 86400000, 1
        where old.opened_at is null and new.opened_at is not null
        on conflict (campaign_id, day) do update set opened = opened + 1;
    insert into campaign_daily_stats (campaign_id, day, clicked) select new.campaign_id, new.clicked_at / 86400000, 1
        where old.clicked_at is null and new.clicked_at is not null
        on conflict (campaign_id, day) do update set clicked = clicked + 1;
    insert into campaign_daily_stats (campaign_id, day, replied) select new.campaign_id, new.replied_at / 86400000, 1
        where old.replied_at is null and new.replied_at is not null
        on conflict (campaign_id, day) do update set replied = replied + 1;
    insert into campaign_daily_stats (campaign_id, day, bounced) select new.campaign_id, new.bounced_at / 86400000, 1
        where old.bounced_at is null and new.bounced_at is not null
        on conflict (campaign_id, day) do update set bounced = bounced + 1;
    insert into campaign_daily_stats (campaign_id, day, spam) select new.campaign_id, new.spam_reported_at / 86400000, 1
        where old.spam_reported_at is null and new.spam_reported_at is not null
        on conflict (campaign_id, day) do update set spam = spam + 1;
    insert into campaign_daily_stats (campaign_id, day, unsubscribed) select new.campaign_id, new.unsubscribed_at / 86400000, 1
        where old.unsubscribed_at is null and new.unsubscribed_at is not null
        on conflict (campaign_id, day) do update set unsubscribed = unsubscribed + 1;
end;

create trigger email_events_daily after insert on email_events
when new.kind in ('open', 'click')
begin
    insert into campaign_daily_stats (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, new.occurred_at / 86400000, new.kind = 'open' and not new.is_machine,
        new.kind = 'open' and new.is_machine, new.kind = 'click'
    from sent_emails m where m.token = new.token and m.campaign_id is not null and not m.is_test and m.kind <> 'answer'
    on conflict (campaign_id, day) do update set human_opens = human_opens + excluded.human_opens,
        machine_opens = machine_opens + excluded.machine_opens, clicks = clicks + excluded.clicks;
end;
