-- Each worker process holds a lease it renews while it lives; a message it claims names the lease. Messages left in
-- sending under a lease that expired belong to a worker that crashed: they are marked failed (never resent) on a
-- timer, not only when a worker starts, and their campaigns finish.
create table send_leases (
    worker text primary key,
    expires_at bigint not null
);
alter table sent_emails add column claimed_by text;
-- Messages in sending, by the lease that claimed them (the reconciliation's scan).
create index sent_emails_sending on sent_emails (claimed_by) where status = 'sending';
