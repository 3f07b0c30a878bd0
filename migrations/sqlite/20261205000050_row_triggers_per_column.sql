-- SQLite runs what a table's checks and row triggers set up once for every row a statement writes. A list of more
-- than two values (`status in ('queued', 'sending', ...)`, `not in (...)`) is looked up through a temporary index
-- it builds each time: the check of a message's status did so for every row a claim or a sent mark wrote, the check
-- of an event's kind for every event, and the contacts' trigger for every message whose status changed, a quarter
-- of a claim's time on rows it then ignored. The same comparisons written out build nothing. The daily counters'
-- trigger ran its ten counts for every update of a message; each count is now a trigger of its own on the column
-- that makes it (`after update of`), so a claim or a sent mark runs only the counts of what it sets
-- (core/tests/core/send_plans.rs, docs/benchmarks.md, Sending).
--
-- A check is rewritten in place, as SQLite's documentation allows for changes that leave every stored row as it is
-- (ALTER TABLE, "other kinds of table schema changes"): every row met the list and meets the comparisons. The
-- triggers made below change the schema's version, so every connection reads the new text.
pragma writable_schema = on;
update sqlite_master set sql = replace(sql, 'check (status in
        (''queued'', ''sending'', ''sent'', ''delivered'', ''opened'', ''replied'', ''failed'', ''skipped'', ''bounced'', ''spam''))',
    'check (status = ''queued'' or status = ''sending'' or status = ''sent'' or status = ''delivered''
        or status = ''opened'' or status = ''replied'' or status = ''failed'' or status = ''skipped''
        or status = ''bounced'' or status = ''spam'')')
where type = 'table' and name = 'sent_emails';
update sqlite_master set sql = replace(sql,
    'check (kind in (''open'', ''click'', ''unsubscribe'', ''delivered'', ''reply'', ''bounce'', ''spam''))',
    'check (kind = ''open'' or kind = ''click'' or kind = ''unsubscribe'' or kind = ''delivered'' or kind = ''reply''
        or kind = ''bounce'' or kind = ''spam'')')
where type = 'table' and name = 'email_events';
pragma writable_schema = off;
-- Both rewrites took (a text other than the one replaced would leave a check as it was): else the migration fails.
create temporary table rewritten_checks (found integer check (found = 2));
insert into rewritten_checks select count(*) from sqlite_master
where type = 'table' and ((name = 'sent_emails' and sql like '%check (status = ''queued'' or status = ''sending''%')
    or (name = 'email_events' and sql like '%check (kind = ''open'' or kind = ''click''%'));
drop table rewritten_checks;

drop trigger sent_emails_contacts_update;
create trigger sent_emails_contacts_update after update on sent_emails
when not new.is_test and new.status <> 'queued' and new.status <> 'sending' and new.status <> 'skipped'
begin
    insert into contacts (user_id, email, business_id, messages, sent, last_sent_at, delivered_at, opened_at,
        clicked_at, replied_at, bounced_at, spam_reported_at, unsubscribed_at, last_activity_at)
    values (new.user_id, new.to_email, new.business_id, (old.status = 'queued' or old.status = 'sending'),
        old.sent_at is null and new.sent_at is not null, new.sent_at, new.delivered_at,
        new.opened_at, new.clicked_at, new.replied_at, new.bounced_at, new.spam_reported_at, new.unsubscribed_at,
        coalesce(new.sent_at, new.created_at))
    on conflict (user_id, email) do update set
        business_id = coalesce(excluded.business_id, business_id),
        messages = messages + excluded.messages,
        sent = sent + excluded.sent,
        last_sent_at = max(coalesce(last_sent_at, excluded.last_sent_at), coalesce(excluded.last_sent_at, last_sent_at)),
        delivered_at = min(coalesce(delivered_at, excluded.delivered_at), coalesce(excluded.delivered_at, delivered_at)),
        opened_at = min(coalesce(opened_at, excluded.opened_at), coalesce(excluded.opened_at, opened_at)),
        clicked_at = min(coalesce(clicked_at, excluded.clicked_at), coalesce(excluded.clicked_at, clicked_at)),
        replied_at = min(coalesce(replied_at, excluded.replied_at), coalesce(excluded.replied_at, replied_at)),
        bounced_at = min(coalesce(bounced_at, excluded.bounced_at), coalesce(excluded.bounced_at, bounced_at)),
        spam_reported_at = min(coalesce(spam_reported_at, excluded.spam_reported_at), coalesce(excluded.spam_reported_at, spam_reported_at)),
        unsubscribed_at = min(coalesce(unsubscribed_at, excluded.unsubscribed_at), coalesce(excluded.unsubscribed_at, unsubscribed_at)),
        last_activity_at = max(last_activity_at, excluded.last_activity_at);
end;

drop trigger sent_emails_daily_changes;
create trigger sent_emails_daily_sent after update of sent_at on sent_emails
when old.sent_at is null and new.sent_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, sent) values (new.campaign_id, new.sent_at / 86400000, 1)
        on conflict (campaign_id, day) do update set sent = sent + 1;
end;
create trigger sent_emails_daily_failed after update of status on sent_emails
when new.status = 'failed' and old.status <> 'failed'
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, failed) values (new.campaign_id, coalesce(new.claimed_at, old.claimed_at, new.created_at) / 86400000, 1)
        on conflict (campaign_id, day) do update set failed = failed + 1;
end;
create trigger sent_emails_daily_skipped after update of status on sent_emails
when new.status = 'skipped' and old.status <> 'skipped'
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, skipped) values (new.campaign_id, new.created_at / 86400000, 1)
        on conflict (campaign_id, day) do update set skipped = skipped + 1;
end;
create trigger sent_emails_daily_delivered after update of delivered_at on sent_emails
when old.delivered_at is null and new.delivered_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, delivered) values (new.campaign_id, new.delivered_at / 86400000, 1)
        on conflict (campaign_id, day) do update set delivered = delivered + 1;
end;
create trigger sent_emails_daily_opened after update of opened_at on sent_emails
when old.opened_at is null and new.opened_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, opened) values (new.campaign_id, new.opened_at / 86400000, 1)
        on conflict (campaign_id, day) do update set opened = opened + 1;
end;
create trigger sent_emails_daily_clicked after update of clicked_at on sent_emails
when old.clicked_at is null and new.clicked_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, clicked) values (new.campaign_id, new.clicked_at / 86400000, 1)
        on conflict (campaign_id, day) do update set clicked = clicked + 1;
end;
create trigger sent_emails_daily_replied after update of replied_at on sent_emails
when old.replied_at is null and new.replied_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, replied) values (new.campaign_id, new.replied_at / 86400000, 1)
        on conflict (campaign_id, day) do update set replied = replied + 1;
end;
create trigger sent_emails_daily_bounced after update of bounced_at on sent_emails
when old.bounced_at is null and new.bounced_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, bounced) values (new.campaign_id, new.bounced_at / 86400000, 1)
        on conflict (campaign_id, day) do update set bounced = bounced + 1;
end;
create trigger sent_emails_daily_spam after update of spam_reported_at on sent_emails
when old.spam_reported_at is null and new.spam_reported_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, spam) values (new.campaign_id, new.spam_reported_at / 86400000, 1)
        on conflict (campaign_id, day) do update set spam = spam + 1;
end;
create trigger sent_emails_daily_unsubscribed after update of unsubscribed_at on sent_emails
when old.unsubscribed_at is null and new.unsubscribed_at is not null
    and new.campaign_id is not null and not new.is_test and new.kind <> 'answer' and new.status <> 'sending'
begin
    insert into campaign_daily_stats (campaign_id, day, unsubscribed) values (new.campaign_id, new.unsubscribed_at / 86400000, 1)
        on conflict (campaign_id, day) do update set unsubscribed = unsubscribed + 1;
end;
