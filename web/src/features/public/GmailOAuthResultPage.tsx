/** Gmail permission result (B §2.17, §8): success, failure with the reason, or unknown after 3 seconds. */
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { buttonClass } from "../../components/ui/button";
import { PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

export const UNKNOWN_AFTER_MS = 3000;

export const FAILURE_REASONS: Record<string, string> = {
  access_denied: "You declined to grant the necessary permissions.",
  server_error: "There was a server error during the authorization process.",
  no_auth_code: "No authorization code received from Google",
  callback_failed: "Gmail OAuth callback processing failed",
};
const OTHER_FAILURE = "The permission request could not be completed.";

type Outcome = "success" | "failure" | "pending";

/** Back to the email settings, where the dashboard announces the new sender. */
export function dashboardAfterSuccess(email: string | null): string {
  const query = new URLSearchParams({ tab: "email-settings", gmail: "success" });
  if (email) query.set("email", email);
  return `/dashboard?${query.toString()}`;
}

export function outcomeOf(params: URLSearchParams): Outcome {
  const success = params.get("success");
  if (params.get("error") || success === "false") return "failure";
  if (success === "gmail_oauth_complete" || success === "true") return "success";
  return "pending";
}

export function GmailOAuthResultPage() {
  usePageTitle("Gmail Connection");
  const [params] = useSearchParams();
  const outcome = outcomeOf(params);
  const [timedOut, setTimedOut] = useState(false);

  useEffect(() => {
    if (outcome !== "pending") return;
    const timer = setTimeout(() => setTimedOut(true), UNKNOWN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  return (
    <PublicPage>
      <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm" role="status">
        {outcome === "success" ? (
          <>
            <h1 className="text-2xl font-bold text-green-700">Gmail Permission Granted Successfully!</h1>
            <p className="mt-3 text-slate-700">Next steps:</p>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
              <li>Your Gmail address can now send your campaigns.</li>
              <li>Choose it as the sender in step 5 of the campaign builder.</li>
              <li>Send yourself a test email before launching.</li>
            </ul>
            <a className={`${buttonClass("primary")} mt-6`} href={dashboardAfterSuccess(params.get("email"))}>
              Continue to Dashboard
            </a>
          </>
        ) : outcome === "failure" ? (
          <>
            <h1 className="text-2xl font-bold text-red-700">Gmail Permission Request Failed</h1>
            <p className="mt-3 text-slate-700">{FAILURE_REASONS[params.get("error") ?? ""] ?? OTHER_FAILURE}</p>
            <p className="mt-2 text-slate-700">You can try again from the email settings at any time.</p>
            <div className="mt-6 flex flex-wrap gap-3">
              <a className={buttonClass("primary")} href="/dashboard?tab=email">
                Try Again
              </a>
              <a className={buttonClass("outline")} href="/dashboard">
                Return to Dashboard
              </a>
            </div>
          </>
        ) : timedOut ? (
          <>
            <h1 className="text-2xl font-bold">Authorization Status Unknown</h1>
            <p className="mt-3 text-slate-700">
              We could not tell whether Gmail permission was granted. Check your email settings to see whether Gmail
              is connected.
            </p>
            <a className={`${buttonClass("primary")} mt-6`} href="/dashboard?tab=email">
              Open Email Settings
            </a>
          </>
        ) : (
          <h1 className="text-2xl font-bold">Processing Authorization...</h1>
        )}
      </div>
    </PublicPage>
  );
}
