/** Shows the beta screen instead of the app while the account is inactive (A §2 Account-inactive gate screen). */
import { useEffect, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button, ButtonLink } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { ACCOUNT_STATUS_ERROR, type AccountStatusErrorDetail } from "@outreach/client/events";
import { useApiMutation } from "@outreach/client/mutation";
import { apiRequest, serverMessage } from "@outreach/client/request";
import { USER_QUERY_KEY, useAuth, type User } from "../../lib/auth";
import { useInstance } from "../../lib/instance";
import { nextGateState, type GateState } from "./gate";

export function AccountGate({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  const [state, setState] = useState<GateState>({ kind: "checking" });

  // Feed each new load result to the gate while rendering (React's pattern for state derived from changing data).
  const loaded = isLoading ? "loading" : `${user !== null}:${!!user?.hasAccess}`;
  const [seen, setSeen] = useState("loading");
  if (loaded !== seen) {
    setSeen(loaded);
    if (!isLoading) setState(nextGateState(state, { type: "loaded", hasUser: user !== null, hasAccess: !!user?.hasAccess }));
  }

  useEffect(() => {
    const onStatusError = (event: Event) => {
      const { status, message } = (event as CustomEvent<AccountStatusErrorDetail>).detail;
      setState((current) => nextGateState(current, { type: "statusError", status, message }));
    };
    window.addEventListener(ACCOUNT_STATUS_ERROR, onStatusError);
    return () => window.removeEventListener(ACCOUNT_STATUS_ERROR, onStatusError);
  }, []);

  if (state.kind === "checking") return <Spinner label="Checking your account..." />;
  if (state.kind === "inactive") return <BetaScreen user={user} message={state.message} />;
  return <>{children}</>;
}

/** How often the beta screen asks whether the account was activated meanwhile. */
const ACTIVATION_POLL_MS = 5000;

export function BetaScreen({ user, message }: { user: User | null; message: string }) {
  const contact = useInstance().data?.contactEmail ?? "";
  // An administrator may activate the account while this screen is open: the app then starts afresh (the gate
  // leaves "inactive" only through a fresh start, A §4), without the person reloading.
  const latest = useQuery<User | null>({ queryKey: USER_QUERY_KEY, enabled: user !== null, refetchInterval: ACTIVATION_POLL_MS });
  const activated = latest.data?.hasAccess === true;
  useEffect(() => {
    if (activated) window.location.assign("/dashboard");
  }, [activated]);
  const subject = encodeURIComponent("Beta access request");
  const body = encodeURIComponent(
    `Hello,\n\nI would like to request beta access to the AI Outreach Agent.\n\nMy account email: ${user?.email ?? ""}\n\nThank you!`,
  );
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-6 p-6">
      <Card title="Welcome to the AI Outreach Agent beta">
        <p className="mb-2 text-slate-700">Your account needs to be activated to access the platform features.</p>
        <p className="text-slate-700">Thanks for your interest! This platform is currently in beta and invite-only.</p>
        <p className="mt-3 text-sm text-slate-500" data-testid="gate-reason">
          {message}
        </p>
        {user ? (
          <p className="mt-1 text-sm text-slate-600" data-testid="gate-account">
            Signed in as <strong>{user.email}</strong>. This page opens the app by itself once your account is activated.
          </p>
        ) : null}
      </Card>
      <Card title="Current pricing">
        <div className="flex items-baseline justify-between">
          <span className="font-medium">Premium Plan</span>
          <span className="text-2xl font-bold">
            $49<span className="text-base font-normal text-slate-500">/month</span>
          </span>
        </div>
        <p className="mt-3 text-sm text-slate-600">
          Beta access is granted by invitation. Request access below and we will get back to you, usually within a day.
        </p>
      </Card>
      <InviteCodeForm />
      <div className="flex flex-wrap gap-3">
        {/* The draft needs the operator's address: until it is known there is nothing to click. */}
        {contact ? (
          <ButtonLink href={`mailto:${contact}?subject=${subject}&body=${body}`}>Request Beta Access</ButtonLink>
        ) : (
          <span aria-busy="true" className="rounded-md bg-slate-200 px-4 py-2 text-sm text-slate-500">
            Request Beta Access
          </span>
        )}
        <ButtonLink variant="outline" href="/auth/logout">
          Sign Out
        </ButtonLink>
      </div>
    </main>
  );
}

/** People who were sent an invite code enter it here; the server activates the account. */
function InviteCodeForm() {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const redeeming = useApiMutation({
    mutationFn: () => apiRequest("POST", "/api/auth/redeem-invite", { code }),
    // The gate leaves "inactive" only through a fresh start, as the spec requires.
    onSuccess: () => window.location.assign("/dashboard"),
    onError: (failure) => setError(serverMessage(failure) ?? "The invite code could not be redeemed. Please try again."),
  });
  const redeem = () => {
    setError(null);
    redeeming.mutate();
  };

  return (
    <Card title="Have an invite code?">
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          redeem();
        }}
      >
        <label className="sr-only" htmlFor="invite-code">
          Invite code
        </label>
        <input
          id="invite-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          placeholder="XXXX-XXXX-XXXX"
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 uppercase"
        />
        <Button type="submit" disabled={redeeming.isPending || !code.trim()}>
          Activate
        </Button>
      </form>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </Card>
  );
}
