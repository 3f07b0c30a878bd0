/**
 * The console's home, the Admin Panel of B §2.15, §5, §8: the signed-in email, look a user up, set a free trial,
 * grant premium with an email limit for 30 days, the quick-actions summary and the raw data of the last answer.
 */
import { createContext, useContext, useState, type FormEvent, type ReactNode } from "react";
// The web app's data layer and the server's types generated from its OpenAPI description (`make openapi`): the
// console writes and reads the way every screen does.
import type { Granted, UserStatus } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";

const input = "w-full rounded-md border border-slate-300 px-3 py-2";
const button = "rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-900 disabled:opacity-50";

/** The signed-in administrator's email (react-admin renders the home page without props). */
export const SignedInEmail = createContext("");

export function Home() {
  const email = useContext(SignedInEmail);
  const [raw, setRaw] = useState<unknown>(null);

  return (
    <main className="flex max-w-4xl flex-col gap-6 py-4">
      <header>
        <h1 className="text-2xl font-bold">Admin Panel</h1>
        <p className="text-sm text-slate-600">
          Signed in as <strong>{email}</strong>
        </p>
      </header>
      <div className="grid gap-6 md:grid-cols-2">
        <Lookup onResult={setRaw} />
        <FreeTrial onResult={setRaw} />
        <Premium onResult={setRaw} />
        <QuickActions />
      </div>
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
    success: (result) => ({ title: result.message }),
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
