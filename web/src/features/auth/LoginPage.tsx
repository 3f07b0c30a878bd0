/** The sign-in screen (A §2): 'Welcome', Continue with Google, and — on a fresh loopback install without a Google
 * client — a local sign-in by email. Errors from the provider round trip arrive as `?error=`. */
import { useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { Button, ButtonLink } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { useApiMutation } from "@outreach/client/mutation";
import { apiRequest, serverMessage } from "@outreach/client/request";
import { GOOGLE_SIGN_IN_PATH, USER_QUERY_KEY, useAuth, useAuthOptions } from "../../lib/auth";
import { usePageTitle } from "../../lib/title";

export const SIGN_IN_ERRORS: Record<string, string> = {
  access_denied: "You declined to share your Google account, so you were not signed in.",
  state_mismatch: "This sign-in expired or was started in another browser or tab. Please try again.",
  token_exchange_failed: "Google did not confirm the sign-in. Please try again.",
  profile_failed: "Your Google profile could not be read. Please try again.",
  email_not_verified: "Your Google account's email address is not verified.",
  missing_code: "Google did not send a sign-in code. Please try again.",
  google_not_configured: "Google sign-in is not configured on this server.",
  provider_error: "Google reported an error during sign-in. Please try again.",
  server_error: "Something went wrong while signing you in. Please try again.",
};

export function LoginPage() {
  usePageTitle("Sign In");
  const { user, isLoading } = useAuth();
  const options = useAuthOptions();
  const [params] = useSearchParams();
  const [invite, setInvite] = useState("");
  const error = params.get("error");

  if (isLoading) return <Spinner label="Checking authentication..." />;
  if (user) return <Navigate to="/dashboard" replace />;

  const googleHref = invite.trim() ? `${GOOGLE_SIGN_IN_PATH}?invite=${encodeURIComponent(invite.trim())}` : GOOGLE_SIGN_IN_PATH;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <Card title="Welcome">
        <p className="mb-4 text-slate-600">Sign in to find businesses, write personalised emails and run your campaigns.</p>
        {error ? (
          <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-700">
            {SIGN_IN_ERRORS[error] ?? "Sign-in failed. Please try again."}
          </p>
        ) : null}
        {/* The note on Google accounts goes with the button: without a Google client it would point nowhere. */}
        {options.data?.google !== false ? (
          <>
            <ButtonLink href={googleHref} className="w-full">
              Continue with Google
            </ButtonLink>
            <p className="mt-3 text-center text-sm text-slate-500">No Google account? You can create one during sign-in.</p>
          </>
        ) : null}
        {options.data?.inviteOnly ? (
          <div className="mt-4">
            <label htmlFor="login-invite" className="text-sm text-slate-600">
              Invite code (if you have one)
            </label>
            <input
              id="login-invite"
              value={invite}
              onChange={(event) => setInvite(event.target.value)}
              placeholder="XXXX-XXXX-XXXX"
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 uppercase"
            />
          </div>
        ) : null}
        {options.data?.localSignIn ? <LocalSignIn invite={invite} /> : null}
        <p className="mt-6 text-xs text-slate-500">
          By signing in you agree to our <a className="underline" href="/terms">Terms of Service</a> and{" "}
          <a className="underline" href="/privacy">Privacy Policy</a>.
        </p>
      </Card>
    </main>
  );
}

/** Only offered by the server on loopback without a Google client: for trying a fresh install. */
function LocalSignIn({ invite }: { invite: string }) {
  const [email, setEmail] = useState("");
  const [firstName, setFirstName] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const signingIn = useApiMutation({
    // The invite code typed above is redeemed with this sign-in too.
    mutationFn: () => apiRequest("POST", "/auth/local", { email, firstName, invite: invite.trim() || null }),
    invalidates: [USER_QUERY_KEY],
    onError: (error) => setFailure(serverMessage(error) ?? "Sign-in failed. Please try again."),
  });
  const submit = () => {
    setFailure(null);
    signingIn.mutate();
  };

  return (
    <form
      className="mt-6 border-t border-slate-200 pt-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <p className="mb-2 text-sm text-slate-600">
        Local sign-in (this server runs on this machine without a Google client):
      </p>
      <input
        aria-label="Email"
        type="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="you@example.org"
        className="mb-2 w-full rounded-md border border-slate-300 px-3 py-2"
      />
      <input
        aria-label="First name"
        value={firstName}
        onChange={(event) => setFirstName(event.target.value)}
        placeholder="First name"
        className="mb-2 w-full rounded-md border border-slate-300 px-3 py-2"
      />
      {failure ? (
        <p role="alert" className="mb-2 text-sm text-red-600">
          {failure}
        </p>
      ) : null}
      <Button type="submit" variant="outline" className="w-full" disabled={signingIn.isPending}>
        Sign in locally
      </Button>
    </form>
  );
}
