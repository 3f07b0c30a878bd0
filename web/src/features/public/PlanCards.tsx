/** The three tier cards. Starter and Professional sign up with Google; Personalized opens an inquiry mail. */
import { buttonClass } from "../../components/ui/button";
import { GOOGLE_SIGN_IN_PATH } from "../../lib/auth";
import { mailto } from "../../lib/instance";
import { ENTERPRISE_SUBJECT, PLANS, enterpriseBody } from "./plans";

export function PlanCards({ contactEmail }: { contactEmail: string }) {
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {PLANS.map((plan) => (
        <article
          key={plan.name}
          aria-label={`${plan.name} plan`}
          className={`relative flex flex-col rounded-xl border bg-white p-6 shadow-sm ${plan.popular ? "border-brand ring-2 ring-brand" : "border-slate-200"}`}
        >
          {plan.popular ? (
            <span className="absolute -top-3 left-6 rounded-full bg-brand px-3 py-1 text-xs font-semibold text-white">Most Popular</span>
          ) : null}
          <h3 className="text-xl font-semibold">{plan.name}</h3>
          <p className="mt-2">
            <span className="text-4xl font-bold">${plan.price}</span>
            <span className="text-slate-600">/month</span>
          </p>
          <p className="mt-1 text-sm text-slate-600">{plan.emails}</p>
          <ul className="mt-4 flex-1 space-y-2 text-sm">
            {plan.features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <span aria-hidden className="text-green-600">✓</span>
                {feature}
              </li>
            ))}
          </ul>
          {plan.byInquiry ? (
            <a className={`${buttonClass("outline")} mt-6`} href={mailto(contactEmail, ENTERPRISE_SUBJECT, enterpriseBody())}>
              Contact Us
            </a>
          ) : (
            <a className={`${buttonClass(plan.popular ? "primary" : "outline")} mt-6`} href={GOOGLE_SIGN_IN_PATH}>
              Sign Up
            </a>
          )}
        </article>
      ))}
    </div>
  );
}
