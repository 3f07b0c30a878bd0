-- The unified inbox (issue 34): every conversation with a prospect that answered, one row per thread (a campaign's
-- first email to a business, with its follow-ups, answers and the replies to any of them), filed as replies arrive
-- so the list pages by its last reply without reading the replies themselves; the AI's reading of the last reply is
-- joined from reply_readings.
create table inbox_threads (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    -- The thread's first email: its campaign, business, sender, address and subject are the thread's.
    root_message_id bigint not null unique references sent_emails (id) on delete cascade,
    campaign_id bigint references campaigns (id) on delete cascade,
    business_id bigint references businesses (id) on delete set null,
    config_id bigint references email_configs (id) on delete set null,
    to_email text not null,
    subject text not null,
    -- The latest reply: who wrote it, when, and its first words.
    last_inbound_id bigint,
    last_reply_at bigint not null,
    last_from text,
    excerpt text not null default '',
    replies bigint not null default 0,
    unread boolean not null default true,
    -- Marked done by the user; a new reply brings it back.
    done boolean not null default false,
    label text check (label in ('interested', 'meeting_booked', 'not_interested', 'wrong_person', 'out_of_office'))
);
create index inbox_threads_list on inbox_threads (user_id, done, last_reply_at, id);
create index inbox_threads_campaign_label on inbox_threads (campaign_id, label);

alter table inbound_messages add column thread_id bigint references inbox_threads (id) on delete set null;
create index inbound_messages_thread on inbound_messages (thread_id, received_at);

-- Replies and automatic answers received so far, threaded; they were seen on the Responses tab, so they start read.
insert into inbox_threads (user_id, root_message_id, campaign_id, business_id, config_id, to_email, subject,
    last_reply_at, unread)
select root.user_id, root.id, root.campaign_id, root.business_id, root.config_id, root.to_email, root.subject,
    max(i.received_at), false
from inbound_messages i
join sent_emails m on m.id = i.message_id
join sent_emails root on root.id = coalesce((select f.id from sent_emails f where f.campaign_id = m.campaign_id
    and f.business_id = m.business_id and f.kind = 'first'), m.id)
where i.kind in ('reply', 'auto_reply') and m.campaign_id is not null
group by root.id, root.user_id, root.campaign_id, root.business_id, root.config_id, root.to_email, root.subject;

update inbound_messages set thread_id = (
    select t.id from inbox_threads t join sent_emails m on m.id = inbound_messages.message_id
    where t.root_message_id = coalesce((select f.id from sent_emails f where f.campaign_id = m.campaign_id
        and f.business_id = m.business_id and f.kind = 'first'), m.id))
where kind in ('reply', 'auto_reply') and message_id is not null;

update inbox_threads set
    last_inbound_id = (select i.id from inbound_messages i where i.thread_id = inbox_threads.id
        order by i.received_at desc, i.id desc limit 1),
    replies = (select count(*) from inbound_messages i where i.thread_id = inbox_threads.id);
update inbox_threads set
    last_from = (select i.from_email from inbound_messages i where i.id = inbox_threads.last_inbound_id),
    excerpt = coalesce((select substr(i.body, 1, 200) from inbound_messages i
        where i.id = inbox_threads.last_inbound_id), '');
