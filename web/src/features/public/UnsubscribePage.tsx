/** Unsubscribe (B §2.16, §5, §8): one email field; success says the address left every marketing list. Opened
 * from a link in an email (its sealed token `t`, or an older link's address and signature), the address is
 * pre-filled, and the page names the sender whose emails it came from when the link holds it (issue 83.16). */
import { useEffect, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../components/ui/button";
import { useApiMutation } from "@outreach/client/mutation";
import { apiRequest, requestJson } from "@outreach/client/request";
import { PublicPage } from "./PublicLayout";
import type { LinkAddress } from "@outreach/client/api/types";
import { usePageTitle } from "../../lib/title";

const VALID_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function UnsubscribePage() {
  usePageTitle("Unsubscribe");
  const [params] = useSearchParams();
  const [email, setEmail] = useState("");
  const [signature, setSignature] = useState<string | undefined>();
  const [token, setToken] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [sender, setSender] = useState<string | null>(null);
  const unsubscribing = useApiMutation({
    mutationFn: (address: string) => apiRequest("POST", "/api/unsubscribe", { email: address, signature, token }),
    failure: { title: "Error", description: "Failed to unsubscribe. Please try again." },
  });
  const done = unsubscribing.isSuccess;

  useEffect(() => {
    const linkToken = params.get("t");
    const linkEmail = params.get("email");
    const linkSignature = params.get("signature");
    let query: URLSearchParams;
    if (linkToken) query = new URLSearchParams({ t: linkToken });
    else if (linkEmail && linkSignature) query = new URLSearchParams({ email: linkEmail, signature: linkSignature });
    else return;
    requestJson<LinkAddress>("GET", `/api/unsubscribe/verify?${query}`)
      .then((verified) => {
        setEmail(verified.email);
        setSender(verified.sender ?? null);
        if (linkToken) setToken(linkToken);
        else setSignature(linkSignature ?? undefined);
      })
      .catch(() => undefined); // an invalid link simply leaves the field for the visitor to fill
  }, [params]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!VALID_EMAIL.test(email.trim())) {
      setError("Please enter a valid email address");
      return;
    }
    setError(null);
    unsubscribing.mutate(email.trim());
  };

  return (
    <PublicPage>
      <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        {done ? (
          <div role="status">
            <h1 className="text-2xl font-bold text-green-700">Unsubscribed Successfully</h1>
            <p className="mt-3 text-slate-700">
              <strong>{email.trim()}</strong> has been removed from all marketing lists across all campaigns. This
              takes effect immediately.
            </p>
            <p className="mt-3 text-slate-700">
              You may still receive transactional messages about an account you hold. To subscribe again, contact the
              sender who wrote to you.
            </p>
          </div>
        ) : (
          <form onSubmit={submit} noValidate>
            <h1 className="text-2xl font-bold">Unsubscribe</h1>
            <p className="mt-2 text-slate-700">
              {sender ? (
                <>
                  You received an email from <strong data-testid="unsubscribe-sender">{sender}</strong>, sent through this service. Confirm your
                  address to stop receiving outreach emails sent through it, from {sender} and everyone else.
                </>
              ) : (
                "Enter your email address to stop receiving outreach emails sent through this service."
              )}
            </p>
            <label htmlFor="unsubscribe-email" className="mt-4 block text-sm font-medium">
              Email address
            </label>
            <input
              id="unsubscribe-email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={error !== null}
              aria-describedby={error ? "unsubscribe-error" : undefined}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
            {error ? (
              <p id="unsubscribe-error" role="alert" className="mt-1 text-sm text-red-600">
                {error}
              </p>
            ) : null}
            <Button type="submit" disabled={unsubscribing.isPending} className="mt-4 w-full">
              Unsubscribe
            </Button>
          </form>
        )}
      </div>
    </PublicPage>
  );
}
