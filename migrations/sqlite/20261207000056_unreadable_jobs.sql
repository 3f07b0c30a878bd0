-- Nothing to change on SQLite: its reads of the queue guard each payload with json_valid() (PostgreSQL needs a
-- function for that, outreach_job_json). The migration exists so that both backends share one list of versions.
select 1;
