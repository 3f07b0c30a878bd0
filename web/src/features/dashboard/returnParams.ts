/**
 * Query parameters a redirect back from Google leaves on the dashboard (A §2, §8): `gmail`, `error` and `email`.
 * Each becomes a toast, then all three are removed from the URL.
 */
import type { ToastVariant } from "@outreach/client/toast-store";

export const RETURN_PARAMS = ["gmail", "error", "email"] as const;

export interface ReturnToast {
  title: string;
  description?: string;
  variant: ToastVariant;
}

export function returnToasts(search: string): ReturnToast[] {
  const params = new URLSearchParams(search);
  const toasts: ReturnToast[] = [];
  const email = params.get("email");
  if (params.get("gmail") === "success") {
    toasts.push({
      title: "Gmail Connection Successful",
      description: email ? `${email} can now send your campaigns.` : "Your Gmail account can now send your campaigns.",
      variant: "default",
    });
  }
  const error = params.get("error");
  if (error) {
    const description =
      error === "no_auth_code"
        ? "No authorization code received from Google"
        : error === "callback_failed"
          ? "Gmail OAuth callback processing failed"
          : `Gmail connection error: ${error}`;
    toasts.push({ title: "Gmail Connection Failed", description, variant: "destructive" });
  }
  return toasts;
}

/** The URL without the return parameters (other parameters, such as `tab`, stay). */
export function withoutReturnParams(url: string): string {
  const parsed = new URL(url);
  RETURN_PARAMS.forEach((name) => parsed.searchParams.delete(name));
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
