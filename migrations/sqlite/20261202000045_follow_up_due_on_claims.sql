-- PostgreSQL's twin makes its statement-level follow-up trigger return at once for an update that sets no sent or
-- open time (a claim). SQLite's follow-up triggers already fire only on `sent_at` and `opened_at`: nothing to change.
select 1;
