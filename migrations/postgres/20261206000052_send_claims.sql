-- Claims in a narrow table of their own (issue 32), as the hand-overs of migration 41. A claim was an update of the
-- message's `sent_emails` row (status `sending`, with its worker and time), which rewrote the whole row and its
-- indexes; its sent mark then rewrote it again. Now a message is in sending exactly when it has a claim here (its
-- row stays `queued`), and every way out of sending deletes the claim in the same transaction. `claimed_by` is null
-- for a claim made before leases. No foreign key: a message deleted while claimed leaves a claim that recovery
-- sweeps (`outgoing/sweep_claims`). The message's `claimed_by` goes: only a claim names its worker now (its
-- `claimed_at` stays, the day a failure counts on). In isolation this took a fifth of the WAL and a quarter of the
-- time of a claim and sent mark (docs/benchmarks.md, Sending).
create table send_claims (
    message bigint primary key,
    claimed_by text,
    claimed_at bigint not null
);
insert into send_claims (message, claimed_by, claimed_at)
    select id, claimed_by, coalesce(claimed_at, created_at) from sent_emails where status = 'sending';
update sent_emails set status = 'queued' where status = 'sending';
drop index sent_emails_sending;
alter table sent_emails drop column claimed_by;
