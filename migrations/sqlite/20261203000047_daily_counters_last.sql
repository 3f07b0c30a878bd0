-- PostgreSQL's twin renames the daily counters' triggers so that they fire last and a write holds the day's row
-- only from its end to its commit. SQLite has one writer at a time, which a write waits for as a whole: nothing to
-- change.
select 1;
