/** Invite codes: the list (search in code and note), a new code with a note, and revoking an unused one. */
import {
  Create,
  Datagrid,
  DateField,
  List,
  SaveButton,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  useRecordContext,
} from "react-admin";
import type { InviteRow } from "@outreach/client/api/types";
import { useAdminAction } from "../actions";

export function InviteList() {
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Code or note" />]} sort={{ field: "createdAt", order: "DESC" }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="code" className="font-mono" />
        <TextField source="note" emptyText="" sortable={false} />
        <DateField source="createdAt" label="Created" sortable={false} />
        <TextField source="redeemedByEmail" label="Redeemed by" emptyText="—" sortable={false} />
        <DateField source="revokedAt" label="Revoked" emptyText="—" sortable={false} />
        <RevokeButton />
      </Datagrid>
    </List>
  );
}

function RevokeButton() {
  const invite = useRecordContext<InviteRow>();
  const revoke = useAdminAction("Invite code revoked", "Failed to revoke the invite code");
  if (!invite || invite.redeemedAt || invite.revokedAt) return null;
  return (
    <button
      type="button"
      className="text-sm text-red-700 underline"
      disabled={revoke.isPending}
      onClick={() => revoke.mutate({ path: `/api/admin/invites/${invite.id}/revoke` })}
    >
      Revoke
    </button>
  );
}

export function InviteCreate() {
  return (
    <Create redirect="list" title="New invite code">
      {/* The note is optional: Save works on an untouched form. */}
      <SimpleForm toolbar={<Toolbar><SaveButton alwaysEnable /></Toolbar>}>
        <TextInput source="note" label="Who is it for? (optional)" fullWidth />
      </SimpleForm>
    </Create>
  );
}
