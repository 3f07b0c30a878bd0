/** Purchase More Emails (A §2): the monthly limit is raised by emailing the owner with a pre-filled draft. */
import { Link } from "react-router";
import { buttonClass } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { useAuth } from "../../lib/auth";
import { mailto, useInstance } from "../../lib/instance";
import { usePageTitle } from "../../lib/title";

export function PurchaseEmailsPage() {
  usePageTitle("Buy Emails");
  const { user } = useAuth();
  const contact = useInstance().data?.contactEmail ?? "";
  const body = [
    "Hello,",
    "",
    "I would like to raise my monthly email limit.",
    "",
    `Account email: ${user?.email ?? ""}`,
    `Current plan: ${user?.subscriptionPlan ?? ""}`,
    "Desired monthly limit:",
    "Use case:",
    "Timeline:",
    "",
    "Thank you!",
  ].join("\n");
  return (
    <main className="mx-auto max-w-2xl space-y-6 p-6">
      <Link to="/dashboard" className={buttonClass("ghost")}>
        ← Back to Dashboard
      </Link>
      <Card title="Purchase More Emails">
        <p className="text-slate-700">
          Need to send more? Your monthly email limit is raised by emailing the owner, who sets your new limit by hand.
        </p>
        <h2 className="mt-4 font-semibold">Please include</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
          <li>Your current plan</li>
          <li>The monthly email limit you need</li>
          <li>Your use case</li>
          <li>Your timeline</li>
        </ul>
        <a className={`${buttonClass("primary")} mt-6`} href={mailto(contact, "Request to Purchase More Emails", body)}>
          Email the Owner
        </a>
        <p className="mt-4 text-sm text-slate-600">You will usually get an answer within about 24 hours.</p>
      </Card>
    </main>
  );
}
