-- A claim (queued → sending) changes no counter, yet fired the per-day trigger's eleven upserts for every row: on
-- SQLite, where triggers run per row, that was a measurable share of each send. The trigger now skips it.
drop trigger sent_emails_daily_changes;
create trigger sent_emails_daily_changes after update on sent_emails
when new.campaign_id is not null and not new.is_test and new.status <> 'sending'
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
