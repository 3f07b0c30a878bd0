/**
 * The suppression list: search, add an address (nothing is sent to it any more, by any user), and remove one with
 * the reason, which the audit log keeps.
 */
import { useState } from "react";
import { Create, Datagrid, DateField, List, SearchInput, SimpleForm, TextField, TextInput, required, useRecordContext } from "react-admin";
import type { Done, SuppressedAddress } from "@outreach/client/api/types";
import { useAdminAction } from "../actions";

export function UnsubscribeList() {
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Address" />]} sort={{ field: "createdAt", order: "DESC" }} title="Suppression list">
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="email" sortable={false} />
        <TextField source="source" sortable={false} />
        <DateField source="createdAt" label="Since" showTime sortable={false} />
        <RemoveButton />
      </Datagrid>
    </List>
  );
}

/** Remove, after asking why. */
function RemoveButton() {
  const address = useRecordContext<SuppressedAddress>();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const remove = useAdminAction<Done>("Removed", "Failed to remove the address");
  if (!address) return null;
  if (!asking) {
    return (
      <button type="button" className="text-sm text-red-700 underline" onClick={() => setAsking(true)}>
        Remove
      </button>
    );
  }
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate({ method: "DELETE", path: `/api/admin/unsubscribes/${encodeURIComponent(address.id)}`, body: { reason } });
      }}
    >
      <input
        aria-label={`Reason for removing ${address.id}`}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        placeholder="Reason"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <button type="submit" className="text-sm text-red-700 underline" disabled={remove.isPending}>
        Confirm removal
      </button>
    </form>
  );
}

export function UnsubscribeCreate() {
  return (
    <Create redirect="list" title="Suppress an address">
      <SimpleForm>
        <TextInput source="email" type="email" validate={required()} fullWidth />
        <TextInput source="reason" label="Reason (kept in the audit log)" fullWidth />
      </SimpleForm>
    </Create>
  );
}
