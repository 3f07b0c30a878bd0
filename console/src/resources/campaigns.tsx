/** Campaigns across users: progress and the reason of a pause (read-only), and pause or resume. */
import {
  Datagrid,
  DateField,
  EmailField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
} from "react-admin";
import type { AdminCampaign } from "@outreach/client/api/types";
import { useAdminAction } from "../actions";

const STATUSES = ["draft", "searching", "businesses_selected", "template_selected", "active", "paused", "completed", "archived"].map(
  (status) => ({ id: status, name: status.replace("_", " ") }),
);

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Name or owner" />,
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn emptyText="Any status" />,
];

export function CampaignList() {
  return (
    <List filters={filters} sort={{ field: "createdAt", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" />
        <EmailField source="userEmail" label="Owner" />
        <TextField source="status" />
        <NumberField source="queued" />
        <NumberField source="sent" />
        <NumberField source="failed" />
        <TextField source="statusReason" label="Why" emptyText="" sortable={false} />
        <DateField source="createdAt" label="Created" />
      </Datagrid>
    </List>
  );
}

export function CampaignShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <EmailField source="userEmail" label="Owner" />
        <TextField source="status" />
        <TextField source="statusReason" label="Why" emptyText="—" />
        <NumberField source="queued" />
        <NumberField source="sent" />
        <NumberField source="failed" />
        <NumberField source="skipped" />
        <DateField source="createdAt" label="Created" showTime />
        <PauseResume />
      </SimpleShowLayout>
    </Show>
  );
}

function PauseResume() {
  const campaign = useRecordContext<AdminCampaign>();
  const action = useAdminAction("Done", "Failed to change the campaign");
  if (!campaign) return null;
  const button = "rounded-md border border-slate-300 bg-white px-3 py-1 text-sm disabled:opacity-50";
  if (campaign.status === "active") {
    return (
      <button type="button" className={button} disabled={action.isPending} onClick={() => action.mutate({ path: `/api/admin/campaigns/${campaign.id}/pause` })}>
        Pause
      </button>
    );
  }
  if (campaign.status === "paused") {
    return (
      <button type="button" className={button} disabled={action.isPending} onClick={() => action.mutate({ path: `/api/admin/campaigns/${campaign.id}/resume` })}>
        Resume
      </button>
    );
  }
  return null;
}
