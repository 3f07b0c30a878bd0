/**
 * Users: the list with search and the waiting/trial/premium/expired/administrators filters, and a user's page with
 * usage, campaigns, senders and the account actions (activate, deactivate, free trial, premium with a limit,
 * change the limit, extend). Every action is written to the audit log by the server.
 */
import { useState, type FormEvent } from "react";
import {
  ArrayField,
  BooleanField,
  Datagrid,
  DateField,
  EmailField,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
} from "react-admin";
import type { AdminUser, AdminUserDetail, UserChanged } from "@outreach/client/api/types";
import { useAdminAction } from "../actions";

const GROUPS = [
  { id: "waiting", name: "Waiting for access" },
  { id: "trial", name: "Trial" },
  { id: "premium", name: "Premium" },
  { id: "expired", name: "Expired" },
  { id: "administrators", name: "Administrators" },
];

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Email or name" />,
  <SelectInput key="group" source="group" label="Group" choices={GROUPS} alwaysOn emptyText="All users" />,
];

export function UserList() {
  return (
    <List filters={filters} sort={{ field: "createdAt", order: "DESC" }} perPage={25}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        {/* Plain text, not a mailto link: a click on the address opens the user. */}
        <TextField source="email" />
        <TextField source="name" />
        <TextField source="accountStatus" label="Account" />
        <TextField source="subscriptionStatus" label="Subscription" />
        <TextField source="subscriptionPlan" label="Plan" emptyText="—" />
        <NumberField source="emailLimit" label="Limit" />
        <NumberField source="emailsUsed" label="Used (30 days)" />
        <DateField source="subscriptionEndsAt" label="Ends at" emptyText="—" />
        <DateField source="lastLoginAt" label="Last sign-in" showTime emptyText="—" />
      </Datagrid>
    </List>
  );
}

export function UserShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <EmailField source="email" />
        <TextField source="name" />
        <BooleanField source="isAdministrator" />
        <TextField source="accountStatus" label="Account" />
        <TextField source="subscriptionStatus" label="Subscription" />
        <TextField source="subscriptionPlan" label="Plan" emptyText="—" />
        <FunctionField<AdminUser> label="Emails used (30 days)" render={(user) => `${user.emailsUsed} of ${user.emailLimit}`} />
        <DateField source="subscriptionEndsAt" label="Ends at" showTime emptyText="—" />
        <DateField source="lastLoginAt" label="Last sign-in" showTime emptyText="—" />
        <DateField source="createdAt" label="Signed up" showTime />
        <UserActions />
        <ArrayField source="campaigns">
          <Datagrid bulkActionButtons={false} rowClick={(id) => `/campaigns/${id}/show`} empty={<p>No campaigns.</p>}>
            <TextField source="name" />
            <TextField source="status" />
            <NumberField source="sent" />
            <NumberField source="queued" />
            <NumberField source="failed" />
          </Datagrid>
        </ArrayField>
        <ArrayField source="senders">
          <Datagrid bulkActionButtons={false} empty={<p>No senders.</p>}>
            <TextField source="provider" />
            <TextField source="sendFrom" label="From" />
            <BooleanField source="isActive" label="Active" />
            <TextField source="statusMessage" label="Last error" emptyText="—" />
            <FunctionField<AdminUserDetail["senders"][number]> label="Today" render={(s) => `${s.usedToday} / ${s.dailyCap}`} />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}

const input = "w-28 rounded-md border border-slate-300 px-2 py-1";
const button = "rounded-md border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-50 disabled:opacity-50";

/** The account actions of one user. */
function UserActions() {
  const user = useRecordContext<AdminUserDetail>();
  const [limit, setLimit] = useState("");
  const [days, setDays] = useState("30");
  const action = useAdminAction<UserChanged>("Done", "Failed to update user status");
  if (!user) return null;
  const run = (body: Record<string, unknown>) => action.mutate({ path: `/api/admin/users/${user.id}/actions`, body });
  const withLimit = (name: string) => (event: FormEvent) => {
    event.preventDefault();
    run({ action: name, emailLimit: limit });
  };
  return (
    <section aria-label="Account actions" className="flex flex-col gap-3 text-sm">
      <div className="flex flex-wrap gap-2">
        {user.accountStatus === "active" ? (
          <button type="button" className={button} disabled={action.isPending} onClick={() => run({ action: "deactivate" })}>Deactivate</button>
        ) : (
          <button type="button" className={button} disabled={action.isPending} onClick={() => run({ action: "activate" })}>Activate</button>
        )}
        <button type="button" className={button} disabled={action.isPending} onClick={() => run({ action: "free_trial" })}>Set Free Trial</button>
      </div>
      <form className="flex flex-wrap items-center gap-2" onSubmit={withLimit("premium")}>
        <label className="flex items-center gap-2">
          Email limit
          <input className={input} inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} />
        </label>
        <button type="submit" className={button} disabled={action.isPending}>Grant Premium</button>
        <button type="button" className={button} disabled={action.isPending} onClick={withLimit("limit")}>Change limit</button>
      </form>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          run({ action: "extend", days: Number(days) });
        }}
      >
        <label className="flex items-center gap-2">
          Days
          <input className={input} inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <button type="submit" className={button} disabled={action.isPending || !user.subscriptionPlan}>Extend</button>
      </form>
    </section>
  );
}
