-- Messages are written thousands at a time (a campaign's launch, a minute's follow-ups), and every row of such a
-- statement names the same account, campaign, template and sender. A foreign key checks each row on its own (a
-- query that finds and key-share-locks the parent, run once a row for each key): 80,000 of the 100,000 checks of
-- writing 20,000 follow-ups looked up the same four parents again, and the five checks were about 40 % of that
-- write (issue 32). These four keys are now checked once for each parent a statement names, with the same lock
-- (`for key share`, held to the end of the transaction: a delete of the parent meanwhile waits for the write and
-- then finds its messages, and a write after the delete finds the parent gone and is refused), and deleting a
-- parent does what its key did. The business key stays a key: its parent differs from row to row.
alter table sent_emails drop constraint sent_emails_user_id_fkey, drop constraint sent_emails_campaign_id_fkey,
    drop constraint sent_emails_template_id_fkey, drop constraint sent_emails_config_id_fkey;

-- Locks the named parents as a key check would, and refuses when one is gone (error 23503, as a key's).
create function sent_emails_lock_parents(account_ids bigint[], campaign_ids bigint[], template_ids bigint[],
    sender_ids bigint[])
returns void language plpgsql as $$
declare
    missing text;
begin
    if (select count(*) from (select from users p where p.id = any(account_ids) for key share) l)
        < cardinality(account_ids) then
        missing := 'sent_emails_user_id_fkey';
    elsif (select count(*) from (select from campaigns p where p.id = any(campaign_ids) for key share) l)
        < cardinality(campaign_ids) then
        missing := 'sent_emails_campaign_id_fkey';
    elsif (select count(*) from (select from email_templates p where p.id = any(template_ids) for key share) l)
        < cardinality(template_ids) then
        missing := 'sent_emails_template_id_fkey';
    elsif (select count(*) from (select from email_configs p where p.id = any(sender_ids) for key share) l)
        < cardinality(sender_ids) then
        missing := 'sent_emails_config_id_fkey';
    end if;
    if missing is not null then
        raise exception 'insert or update on table "sent_emails" violates foreign key constraint "%"', missing
            using errcode = 'foreign_key_violation', constraint = missing, table = 'sent_emails';
    end if;
end $$;

create function sent_emails_parents_on_insert() returns trigger language plpgsql as $$
begin
    perform sent_emails_lock_parents(
        array(select distinct user_id from new_rows),
        array(select distinct campaign_id from new_rows where campaign_id is not null),
        array(select distinct template_id from new_rows where template_id is not null),
        array(select distinct config_id from new_rows where config_id is not null));
    return null;
end $$;
create trigger sent_emails_parents_on_insert after insert on sent_emails
    referencing new table as new_rows for each statement execute function sent_emails_parents_on_insert();

-- No statement changes these columns today; a row that does is checked like an insert.
create function sent_emails_parents_on_update() returns trigger language plpgsql as $$
begin
    perform sent_emails_lock_parents(array[new.user_id], array_remove(array[new.campaign_id], null),
        array_remove(array[new.template_id], null), array_remove(array[new.config_id], null));
    return null;
end $$;
create trigger sent_emails_parents_on_update after update of user_id, campaign_id, template_id, config_id
    on sent_emails for each row
    when (old.user_id <> new.user_id or old.campaign_id is distinct from new.campaign_id
        or old.template_id is distinct from new.template_id or old.config_id is distinct from new.config_id)
    execute function sent_emails_parents_on_update();

-- What the keys did when their parent was deleted: an account's messages go with it; a campaign's, template's or
-- sender's messages stay, without the reference.
create function users_delete_sent_emails() returns trigger language plpgsql as $$
begin
    delete from sent_emails where user_id = old.id;
    return null;
end $$;
create trigger users_delete_sent_emails after delete on users for each row
    execute function users_delete_sent_emails();

-- The campaign's, template's or sender's column (the trigger's argument) is emptied in its messages.
create function sent_emails_release_parent() returns trigger language plpgsql as $$
begin
    execute format('update sent_emails set %1$I = null where %1$I = $1', tg_argv[0]) using old.id;
    return null;
end $$;
create trigger campaigns_release_sent_emails after delete on campaigns for each row
    execute function sent_emails_release_parent('campaign_id');
create trigger email_templates_release_sent_emails after delete on email_templates for each row
    execute function sent_emails_release_parent('template_id');
create trigger email_configs_release_sent_emails after delete on email_configs for each row
    execute function sent_emails_release_parent('config_id');
