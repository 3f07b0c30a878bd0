/** Pricing at /pricing and /auth/choose-plan/ (A §2): the 20% crypto discount banner, the invitation-only notice,
 * the tiers, the feature section and, after sign-up, the `auth=success` message. */
import { useSearchParams } from "react-router";
import { GOOGLE_SIGN_IN_PATH } from "../../lib/auth";
import { useInstance } from "../../lib/instance";
import { PlanCards } from "./PlanCards";
import { PublicHeader, PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

const HIGHLIGHTS = [
  { title: "AI-Powered", text: "Personal emails written for each business from your offer, objective and tone." },
  { title: "Smart Discovery", text: "Businesses found by place or topic, with emails and social profiles from their websites." },
  { title: "Automated Campaigns", text: "Sending limits, follow-up sequences and daily automations that run on their own." },
];

export function PricingPage() {
  usePageTitle("Pricing");
  const [params] = useSearchParams();
  const contact = useInstance().data?.contactEmail ?? "";
  const header = <PublicHeader links={[{ href: "/about", label: "About" }, { href: GOOGLE_SIGN_IN_PATH, label: "Sign Up" }]} />;
  return (
    <PublicPage header={header}>
      {params.get("auth") === "success" ? (
        <p role="status" className="mb-6 rounded-md bg-green-50 p-4 text-green-800">
          Your account has been created. Choose a plan to get started.
        </p>
      ) : null}
      <section className="rounded-xl bg-brand px-6 py-10 text-center text-white">
        <h1 className="text-4xl font-bold">Choose Your Plan</h1>
        <p className="mt-3 text-lg">Pay with crypto and get 20% off any plan.</p>
      </section>
      <p role="note" className="mx-auto mt-6 max-w-2xl rounded-md border border-amber-200 bg-amber-50 p-4 text-center text-amber-900">
        Access is by invitation only during the beta. Sign up with Google, then enter the invite code you were sent.
      </p>
      <div className="mt-10">
        <PlanCards contactEmail={contact} />
      </div>
      <section aria-labelledby="why-title" className="mt-16">
        <h2 id="why-title" className="text-center text-2xl font-bold">
          Why teams choose us
        </h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {HIGHLIGHTS.map((item) => (
            <article key={item.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold">{item.title}</h3>
              <p className="mt-2 text-slate-700">{item.text}</p>
            </article>
          ))}
        </div>
      </section>
    </PublicPage>
  );
}
