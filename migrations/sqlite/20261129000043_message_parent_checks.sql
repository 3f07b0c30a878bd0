-- PostgreSQL checks four of a message's foreign keys (account, campaign, template, sender) once a statement instead
-- of once a row (see its twin). SQLite checks a key inside the statement itself, as a lookup in the parent's
-- primary key with no query of its own, so its keys stay as they are.
select 1;
