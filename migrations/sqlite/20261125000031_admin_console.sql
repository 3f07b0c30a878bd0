-- The operator console and command line (issue 22): every administrator action is recorded, with the record as it
-- was before and after, in the same transaction as the change.
create table admin_audit (
    id integer primary key autoincrement,
    -- Who: the administrator's email, or `cli` for the command line.
    actor text not null,
    action text not null,
    target_type text not null,
    target_id text not null,
    -- JSON of the record before and after (null when there was none).
    before text,
    after text,
    -- Why, when the action asks for it (a removal from the suppression list).
    reason text,
    created_at bigint not null
);
create index admin_audit_created on admin_audit (created_at);

-- An invite code an administrator revoked cannot be redeemed.
alter table invite_codes add column revoked_at bigint;
