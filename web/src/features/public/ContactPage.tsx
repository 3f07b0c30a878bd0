/** Contact (B §2.18): the two support addresses, a mail link, common questions and the 24-hour reply note. */
import { buttonClass } from "../../components/ui/button";
import { mailto, useInstance } from "../../lib/instance";
import { PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

const QUESTIONS = [
  { q: "How do I get an invite code?", a: "Email us from the address you will sign in with; we reply with a code." },
  { q: "How do I raise my monthly email limit?", a: "Use Purchase More Emails in the dashboard, or write to us with the limit you need." },
  { q: "Can I send from my own domain?", a: "Yes: see Custom Email Setup in the dashboard for the three options." },
  { q: "Someone emailed me through this service and I want it to stop.", a: "Use the unsubscribe link in the email, or the unsubscribe page; it takes effect at once." },
];

export function ContactPage() {
  usePageTitle("Contact");
  const instance = useInstance().data;
  const addresses = instance?.supportEmails ?? [];
  const first = addresses[0] ?? instance?.contactEmail ?? "";
  return (
    <PublicPage>
      <div className="mx-auto max-w-3xl space-y-8">
        <h1 className="text-4xl font-bold">Contact</h1>
        <section aria-labelledby="write-title" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="write-title" className="text-xl font-semibold">
            Write to us
          </h2>
          <ul className="mt-3 space-y-1">
            {addresses.map((address) => (
              <li key={address}>
                <a className="text-brand underline" href={`mailto:${address}`}>
                  {address}
                </a>
              </li>
            ))}
          </ul>
          <a className={`${buttonClass("primary")} mt-4`} href={mailto(first, "Support Request")}>
            Send us an email
          </a>
          <p className="mt-3 text-sm text-slate-600">We reply within about 24 hours.</p>
        </section>
        <section aria-labelledby="faq-title">
          <h2 id="faq-title" className="text-2xl font-semibold">
            Common questions
          </h2>
          <dl className="mt-3 space-y-4">
            {QUESTIONS.map((item) => (
              <div key={item.q}>
                <dt className="font-medium">{item.q}</dt>
                <dd className="text-slate-700">{item.a}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="about-title">
          <h2 id="about-title" className="text-2xl font-semibold">
            About us
          </h2>
          <p className="mt-2 text-slate-700">
            {instance?.operatorName ?? "Outreach"} runs this instance of Outreach, a self-hosted platform for finding
            businesses, writing personal emails with AI and following every reply.
          </p>
        </section>
      </div>
    </PublicPage>
  );
}
