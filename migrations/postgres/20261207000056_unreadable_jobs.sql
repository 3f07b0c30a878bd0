-- A queue row's payload as JSON, or null when it is not JSON (or not even UTF-8): the scheduler's and the console's
-- reads of the queue go on past a row written by hand or by another version, which the worker that fetches it sets
-- aside (issue 80). An exception block costs a subtransaction per row, only in these occasional reads.
create function outreach_job_json(job bytea) returns jsonb language plpgsql immutable strict as $$
begin
    return convert_from(job, 'UTF8')::jsonb;
exception when others then
    return null;
end
$$;
