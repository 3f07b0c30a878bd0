/**
 * The Admin Panel (B §2.15, §5, §8): look a user up, set a free trial, grant premium with an email limit for
 * 30 days, and hand out invite codes. The server checks the administrator role on every call.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
// The web app's data layer and the server's types generated from its OpenAPI description (`make openapi`): the
// console writes and reads the way every screen does.
import type { Granted, InviteRow as Invite, UserStatus } from "../../web/src/lib/api/types";
import { useApiMutation } from "../../web/src/lib/mutation";
import { requestJson } from "../../web/src/lib/request";

export interface AdminPanelProps {
  email: string;
}

const input = "w-full rounded-md border border-slate-300 px-3 py-2";
const button = "rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-900 disabled:opacity-50";

export function AdminPanel({ email }: AdminPanelProps) {
  const [raw, setRaw] = useState<unknown>(null);

  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 p-6">
      <header className="flex items-center justify-between">
        <div>
          <h1 className="text-2xl font-bold">Admin Panel</h1>
          <p className="text-sm text-slate-600">
            Signed in as <strong>{email}</strong>
          </p>
        </div>
        <a className="text-sm text-blue-700 underline" href="/dashboard">
          Back to dashboard
        </a>
      </header>
      <div className="grid gap-6 md:grid-cols-2">
        <Lookup onResult={setRaw} />
        <FreeTrial onResult={setRaw} />
        <Premium onResult={setRaw} />
        <QuickActions />
      </div>
      <Invites />
      <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <summary className="cursor-pointer">Show raw data</summary>
        <pre className="mt-2 overflow-auto text-xs">{JSON.stringify(raw, null, 2)}</pre>
      </details>
    </main>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Lookup({ onResult }: { onResult: (data: unknown) => void }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const lookup = useApiMutation({
    mutationFn: (address: string) => requestJson<UserStatus>("GET", `/api/admin/user-status?email=${encodeURIComponent(address)}`),
    failure: { title: "Error", description: "Failed to lookup user" },
    onSuccess: onResult,
  });
  const status = lookup.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) return setError("Please enter a user email address");
    lookup.mutate(email.trim());
  };

  return (
    <Panel title="Look up a user">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <input aria-label="Lookup email" className={input} placeholder="user@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <button className={button} type="submit" disabled={lookup.isPending}>Look up</button>
      </form>
      {status && !lookup.isError ? (
        <dl className="mt-3 grid grid-cols-2 gap-1 text-sm" data-testid="lookup-result">
          <dt className="text-slate-500">Account</dt><dd>{status.user.accountStatus}</dd>
          <dt className="text-slate-500">Subscription</dt><dd>{status.user.subscriptionStatus}</dd>
          <dt className="text-slate-500">Plan</dt><dd>{status.user.subscriptionPlan ?? "none"}</dd>
          <dt className="text-slate-500">Email limit</dt><dd>{status.user.emailLimit}</dd>
          <dt className="text-slate-500">Emails used (30 days)</dt><dd>{status.emailsUsed}</dd>
          <dt className="text-slate-500">Ends</dt><dd>{status.user.subscriptionEndsAt ? new Date(status.user.subscriptionEndsAt).toLocaleDateString() : "—"}</dd>
        </dl>
      ) : null}
    </Panel>
  );
}

/** Sets a subscription (B §2.15): the toast says what the server did, in its words (B §8). */
function useGrant(fallback: string, onResult: (data: unknown) => void, onDone: () => void) {
  return useApiMutation({
    mutationFn: (body: { email: string; status: "free_trial" | "premium"; emailLimit?: number }) =>
      requestJson<Granted>("POST", "/api/admin/set-user-status", body),
    success: (result) => ({ title: "Success", description: result.message }),
    failure: { title: "Error", description: fallback },
    onSuccess: (result) => {
      onResult(result);
      onDone();
    },
  });
}

function FreeTrial({ onResult }: { onResult: (data: unknown) => void }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const granting = useGrant("Failed to update user status", onResult, () => setEmail(""));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) return setError("Please enter a user email address");
    granting.mutate({ email: email.trim(), status: "free_trial" });
  };
  return (
    <Panel title="Set free trial">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <input aria-label="Free trial email" className={input} placeholder="user@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <button className={button} type="submit" disabled={granting.isPending}>Set Free Trial</button>
      </form>
    </Panel>
  );
}

function Premium({ onResult }: { onResult: (data: unknown) => void }) {
  const [email, setEmail] = useState("");
  const [limit, setLimit] = useState("");
  const [error, setError] = useState<string | null>(null);
  const granting = useGrant("Failed to update user permissions", onResult, () => {
    setEmail("");
    setLimit("");
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !limit.trim()) return setError("Please enter both email address and email limit");
    const emailLimit = Number(limit);
    if (!Number.isInteger(emailLimit) || emailLimit < 1) return setError("Email limit must be a positive number");
    granting.mutate({ email: email.trim(), status: "premium", emailLimit });
  };
  return (
    <Panel title="Grant full permissions">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <input aria-label="Premium email" className={input} placeholder="user@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        <input aria-label="Email limit" className={input} placeholder="1000" inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} />
        <p className="text-xs text-slate-500">Premium access lasts 30 days with this monthly email limit.</p>
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <button className={button} type="submit" disabled={granting.isPending}>Grant Premium</button>
      </form>
    </Panel>
  );
}

function QuickActions() {
  return (
    <Panel title="Quick actions">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li><strong>Free Trial</strong>: activates the account with the trial's email limit and period.</li>
        <li><strong>Premium Access</strong>: activates the account for 30 days.</li>
        <li><strong>Custom Limits</strong>: the premium grant sets any monthly email limit of 1 or more.</li>
      </ul>
    </Panel>
  );
}

const INVITES_KEY = ["/api/admin/invites"];

function Invites() {
  const [note, setNote] = useState("");
  const invites = useQuery<Invite[] | null>({ queryKey: INVITES_KEY }).data ?? [];
  const creating = useApiMutation({
    mutationFn: (text: string) => requestJson<Invite>("POST", "/api/admin/invites", { note: text }),
    success: (invite) => ({ title: "Invite code created", description: invite.code }),
    failure: { title: "Error", description: "Failed to create invite code" },
    invalidates: [INVITES_KEY],
    onSuccess: () => setNote(""),
  });

  const create = (event: FormEvent) => {
    event.preventDefault();
    creating.mutate(note);
  };

  return (
    <Panel title="Invite codes">
      <form onSubmit={create} className="mb-4 flex gap-2">
        <input aria-label="Invite note" className={input} placeholder="Who is it for? (optional)" value={note} onChange={(e) => setNote(e.target.value)} />
        <button className={button} type="submit" disabled={creating.isPending}>Create invite</button>
      </form>
      {invites.length === 0 ? (
        <p className="text-sm text-slate-600">No invite codes yet.</p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="invites">
          <thead className="text-slate-500">
            <tr><th>Code</th><th>Note</th><th>Created</th><th>Redeemed by</th></tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id} className="border-t border-slate-100">
                <td className="py-1 font-mono">{invite.code}</td>
                <td>{invite.note ?? ""}</td>
                <td>{new Date(invite.createdAt).toLocaleDateString()}</td>
                <td>{invite.redeemedByEmail ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
