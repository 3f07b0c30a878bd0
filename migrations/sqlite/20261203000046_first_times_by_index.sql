-- PostgreSQL's twin keeps its first opens' trigger on the indexes of `sent_emails` whatever the planner believes the
-- table's size to be. SQLite's trigger updates one message by its token's unique index, planned the same way at
-- any size: nothing to change.
select 1;
