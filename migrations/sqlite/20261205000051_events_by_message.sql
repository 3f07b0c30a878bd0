-- PostgreSQL's twin counts a batch of tracking events by message before it looks their messages up. SQLite counts
-- each event in a row trigger through the token's index already: nothing to change.
select 1;
