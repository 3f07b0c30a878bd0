/** /access-denied (B §2.1): where a refused visitor lands. */
import { buttonClass } from "../../components/ui/button";
import { PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

export function AccessDeniedPage() {
  usePageTitle("Access Denied");
  return (
    <PublicPage>
      <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold">Access denied</h1>
        <p className="mt-3 text-slate-700">
          You do not have permission to view this page. Sign in with the account that has access, or ask the owner
          of this instance for an invite.
        </p>
        <div className="mt-6 flex gap-3">
          <a className={buttonClass("primary")} href="/login">Sign In</a>
          <a className={buttonClass("outline")} href="/">Home</a>
        </div>
      </div>
    </PublicPage>
  );
}
