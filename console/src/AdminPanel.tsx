/**
 * The Admin Panel (B §2.15, §5, §8): look a user up, set a free trial, grant premium with an email limit for
 * 30 days, and hand out invite codes. The server checks the administrator role on every call.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
// The server's types, generated from its OpenAPI description in the web package (`make openapi`).
import type { InviteRow as Invite, UserStatus } from "../../web/src/lib/api/types";

export interface AdminPanelProps {
  email: string;
  /** The web app's request helper: throws "status: body" for non-OK answers. */
  request: (method: string, path: string, body?: unknown) => Promise<Response>;
  notify: (toast: { title: string; description?: string; variant?: "default" | "destructive" }) => void;
  /** The server's message in an error thrown by `request`, if it carried one. */
  describe: (failure: unknown) => string | undefined;
}

const input = "w-full rounded-md border border-slate-300 px-3 py-2";
const button = "rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-900 disabled:opacity-50";

export function AdminPanel({ email, request, notify, describe }: AdminPanelProps) {
  const [raw, setRaw] = useState<unknown>(null);
  const fail = (failure: unknown, fallback: string) =>
    notify({ title: "Error", description: describe(failure) ?? fallback, variant: "destructive" });

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
        <Lookup request={request} onResult={setRaw} fail={fail} />
        <FreeTrial request={request} notify={notify} onResult={setRaw} fail={fail} />
        <Premium request={request} notify={notify} onResult={setRaw} fail={fail} />
        <QuickActions />
      </div>
      <Invites request={request} notify={notify} fail={fail} />
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

type Fail = (failure: unknown, fallback: string) => void;

function Lookup({ request, onResult, fail }: Pick<AdminPanelProps, "request"> & { onResult: (data: unknown) => void; fail: Fail }) {
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<UserStatus | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) return setError("Please enter a user email address");
    try {
      const response = await request("GET", `/api/admin/user-status?email=${encodeURIComponent(email.trim())}`);
      const data = (await response.json()) as UserStatus;
      setStatus(data);
      onResult(data);
    } catch (failure) {
      setStatus(null);
      fail(failure, "Failed to lookup user");
    }
  };

  return (
    <Panel title="Look up a user">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <input aria-label="Lookup email" className={input} placeholder="user@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <button className={button} type="submit">Look up</button>
      </form>
      {status ? (
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

interface ChangeProps extends Pick<AdminPanelProps, "request" | "notify"> {
  onResult: (data: unknown) => void;
  fail: Fail;
}

async function setStatus(request: AdminPanelProps["request"], body: unknown): Promise<{ message: string }> {
  const response = await request("POST", "/api/admin/set-user-status", body);
  return (await response.json()) as { message: string };
}

function FreeTrial({ request, notify, onResult, fail }: ChangeProps) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) return setError("Please enter a user email address");
    try {
      const result = await setStatus(request, { email: email.trim(), status: "free_trial" });
      onResult(result);
      notify({ title: "Success", description: result.message });
      setEmail("");
    } catch (failure) {
      fail(failure, "Failed to update user status");
    }
  };
  return (
    <Panel title="Set free trial">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <input aria-label="Free trial email" className={input} placeholder="user@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <button className={button} type="submit">Set Free Trial</button>
      </form>
    </Panel>
  );
}

function Premium({ request, notify, onResult, fail }: ChangeProps) {
  const [email, setEmail] = useState("");
  const [limit, setLimit] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !limit.trim()) return setError("Please enter both email address and email limit");
    const emailLimit = Number(limit);
    if (!Number.isInteger(emailLimit) || emailLimit < 1) return setError("Email limit must be a positive number");
    try {
      const result = await setStatus(request, { email: email.trim(), status: "premium", emailLimit });
      onResult(result);
      notify({ title: "Success", description: result.message });
      setEmail("");
      setLimit("");
    } catch (failure) {
      fail(failure, "Failed to update user permissions");
    }
  };
  return (
    <Panel title="Grant full permissions">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <input aria-label="Premium email" className={input} placeholder="user@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        <input aria-label="Email limit" className={input} placeholder="1000" inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} />
        <p className="text-xs text-slate-500">Premium access lasts 30 days with this monthly email limit.</p>
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <button className={button} type="submit">Grant Premium</button>
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

function Invites({ request, notify, fail }: Pick<AdminPanelProps, "request" | "notify"> & { fail: Fail }) {
  const [invites, setInvites] = useState<Invite[]>([]);
  const [note, setNote] = useState("");
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    request("GET", "/api/admin/invites")
      .then((response) => response.json() as Promise<Invite[]>)
      .then((list) => current && setInvites(list))
      .catch((failure: unknown) => current && fail(failure, "Failed to load invite codes"));
    return () => {
      current = false;
    };
    // `fail` is rebuilt each render; the list reloads when the request function or the version changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request, version]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const response = await request("POST", "/api/admin/invites", { note });
      const invite = (await response.json()) as Invite;
      notify({ title: "Invite code created", description: invite.code });
      setNote("");
      setVersion((value) => value + 1);
    } catch (failure) {
      fail(failure, "Failed to create invite code");
    }
  };

  return (
    <Panel title="Invite codes">
      <form onSubmit={create} className="mb-4 flex gap-2">
        <input aria-label="Invite note" className={input} placeholder="Who is it for? (optional)" value={note} onChange={(e) => setNote(e.target.value)} />
        <button className={button} type="submit">Create invite</button>
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
