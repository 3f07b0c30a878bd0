/**
 * Queue jobs: by kind, status and age, with attempts and the last result; a job's payload and result; retry a
 * failed one, retry every failed job of a kind, cancel a queued one.
 */
import {
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  useListContext,
  useRecordContext,
} from "react-admin";
import type { Done, JobDetail, JobRow } from "@outreach/client/api/types";
import { fromSeconds, useAdminAction } from "../actions";

const STATUSES = ["Pending", "Queued", "Running", "Done", "Failed", "Killed"].map((status) => ({ id: status, name: status }));

const filters = [
  <TextInput key="jobType" source="jobType" label="Kind" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn emptyText="Any status" />,
];

export function JobList() {
  return (
    <List filters={filters} sort={{ field: "runAt", order: "DESC" }} actions={<JobListActions />} perPage={25}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" sortable={false} />
        <TextField source="jobType" label="Kind" />
        <TextField source="status" />
        <FunctionField<JobRow> label="Attempts" sortBy="attempts" render={(job) => `${job.attempts}/${job.maxAttempts}`} />
        <FunctionField<JobRow> label="Runs at" sortBy="runAt" render={(job) => fromSeconds(job.runAt)} />
        <FunctionField<JobRow> label="Done at" sortBy="doneAt" render={(job) => fromSeconds(job.doneAt)} />
        <FunctionField<JobRow> label="Last result" sortable={false} render={(job) => <span className="line-clamp-2 max-w-xs break-all">{job.lastResult ?? ""}</span>} />
        <JobButtons />
      </Datagrid>
    </List>
  );
}

function JobListActions() {
  const { filterValues } = useListContext();
  const kind = typeof filterValues.jobType === "string" ? filterValues.jobType.trim() : "";
  const retry = useAdminAction<Done>("Done", "Failed to retry the jobs");
  return (
    <TopToolbar>
      <FilterButton />
      <button
        type="button"
        className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm disabled:opacity-50"
        disabled={!kind || retry.isPending}
        title={kind ? undefined : "Filter by a kind first"}
        onClick={() => retry.mutate({ path: "/api/admin/jobs/retry-failed", body: { jobType: kind } })}
      >
        Retry every failed job of this kind
      </button>
    </TopToolbar>
  );
}

/** Retry (a failed or cancelled job) or Cancel (a queued one). */
function JobButtons() {
  const job = useRecordContext<JobRow>();
  const action = useAdminAction("Done", "Failed to change the job");
  if (!job) return null;
  const run = (verb: "retry" | "cancel") => (event: React.MouseEvent) => {
    event.stopPropagation();
    action.mutate({ path: `/api/admin/jobs/${job.id}/${verb}` });
  };
  const link = "text-sm underline disabled:opacity-50";
  if (job.status === "Failed" || job.status === "Killed") {
    return <button type="button" className={`${link} text-blue-700`} disabled={action.isPending} onClick={run("retry")}>Retry</button>;
  }
  if (job.status === "Pending" || job.status === "Queued") {
    return <button type="button" className={`${link} text-red-700`} disabled={action.isPending} onClick={run("cancel")}>Cancel</button>;
  }
  return null;
}

export function JobShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="jobType" label="Kind" />
        <TextField source="status" />
        <FunctionField<JobDetail> label="Attempts" render={(job) => `${job.attempts}/${job.maxAttempts}`} />
        <FunctionField<JobDetail> label="Runs at" render={(job) => fromSeconds(job.runAt)} />
        <FunctionField<JobDetail> label="Done at" render={(job) => fromSeconds(job.doneAt)} />
        <TextField source="lockBy" label="Worker" emptyText="—" />
        <FunctionField<JobDetail> label="Payload" render={(job) => <pre className="text-xs whitespace-pre-wrap">{job.payload}</pre>} />
        <FunctionField<JobDetail> label="Last result" render={(job) => <pre className="text-xs whitespace-pre-wrap">{job.lastResult ?? "—"}</pre>} />
        <JobButtons />
      </SimpleShowLayout>
    </Show>
  );
}
