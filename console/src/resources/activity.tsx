/** Read-only views across users: senders' health (in rotation or out, and the campaigns whose pools they are in),
 * searches, and the audit log of every administrator action. */
import {
  BooleanField,
  Datagrid,
  DateField,
  EmailField,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  TextField,
  TextInput,
} from "react-admin";
import type { AdminSearch, AdminSender, AuditEntry } from "@outreach/client/api/types";

const PROVIDERS = ["outbox", "smtp", "gmail", "sendgrid-basic", "sendgrid-custom"].map((id) => ({ id, name: id }));

export function SenderList() {
  return (
    <List
      filters={[
        <SearchInput key="q" source="q" alwaysOn placeholder="Address or owner" />,
        <SelectInput key="provider" source="provider" choices={PROVIDERS} alwaysOn emptyText="Any provider" />,
      ]}
      sort={{ field: "createdAt", order: "DESC" }}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <EmailField source="userEmail" label="Owner" />
        <TextField source="provider" />
        <TextField source="sendFrom" label="From" />
        <BooleanField source="isActive" label="Active" />
        <TextField source="statusMessage" label="Last error" emptyText="—" sortable={false} />
        <TextField source="repliesError" label="Replies" emptyText="—" sortable={false} />
        <FunctionField<AdminSender> label="Cap used today" sortBy="usedToday" render={(s) => `${s.usedToday} / ${s.capToday}${s.capToday < s.dailyCap ? ` (warming up to ${s.dailyCap})` : ""}`} />
        <FunctionField<AdminSender> label="Rotation" sortable={false} render={(s) => (s.stateReason ? `${s.state}: ${s.stateReason}` : s.state)} />
        <DateField source="outAt" label="Out since" showTime emptyText="—" sortable={false} />
        <FunctionField<AdminSender> label="Pools" sortable={false} render={(s) => (s.campaigns.length > 0 ? s.campaigns.join(", ") : "—")} />
      </Datagrid>
    </List>
  );
}

const SEARCH_STATUSES = ["running", "complete", "cancelled", "failed"].map((id) => ({ id, name: id }));

export function SearchList() {
  return (
    <List
      filters={[
        <SearchInput key="q" source="q" alwaysOn placeholder="Term or owner" />,
        <SelectInput key="status" source="status" choices={SEARCH_STATUSES} alwaysOn emptyText="Any status" />,
      ]}
      sort={{ field: "createdAt", order: "DESC" }}
      title="Search logs"
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField source="createdAt" label="When" showTime />
        <EmailField source="userEmail" label="Owner" />
        <TextField source="searchType" label="Type" />
        <TextField source="searchTerm" label="Term" />
        <TextField source="status" />
        <FunctionField<AdminSearch> label="Chunks" sortable={false} render={(s) => `${s.chunksDone}/${s.chunksTotal}`} />
        <NumberField source="businessesFound" label="Found" />
        <TextField source="error" emptyText="" sortable={false} />
      </Datagrid>
    </List>
  );
}

const TARGETS = ["user", "invite", "unsubscribe", "job", "job_kind", "campaign", "search", "enrichment", "replies"].map((id) => ({ id, name: id }));

/** Before and after of an entry, as JSON. */
function Change() {
  return (
    <FunctionField<AuditEntry>
      render={(entry) => (
        <div className="grid gap-2 text-xs md:grid-cols-2">
          <pre className="whitespace-pre-wrap">Before: {pretty(entry.before)}</pre>
          <pre className="whitespace-pre-wrap">After: {pretty(entry.after)}</pre>
        </div>
      )}
    />
  );
}

function pretty(json: string | null | undefined): string {
  if (!json) return "—";
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function AuditList() {
  return (
    <List
      filters={[
        <TextInput key="actor" source="actor" label="Who" alwaysOn />,
        <TextInput key="action" source="action" label="Action" alwaysOn />,
        <SelectInput key="targetType" source="targetType" label="On" choices={TARGETS} alwaysOn emptyText="Anything" />,
      ]}
      sort={{ field: "createdAt", order: "DESC" }}
      title="Audit log"
    >
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<Change />}>
        <DateField source="createdAt" label="When" showTime />
        <TextField source="actor" label="Who" />
        <TextField source="action" />
        <TextField source="targetType" label="On" />
        <TextField source="targetId" label="Which" sortable={false} />
        <TextField source="reason" emptyText="" sortable={false} />
      </Datagrid>
    </List>
  );
}
