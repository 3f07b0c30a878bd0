/** The landing page at / and /home (A §2, §9). While the instance is invite-only, visitors see the invite-only
 * variant: a title, the crypto-payment discount banner, the invite-code box and the tiers. */
import { buttonClass } from "../../components/ui/button";
import { GOOGLE_SIGN_IN_PATH } from "../../lib/auth";
import { mailto, useInstance } from "../../lib/instance";
import { PlanCards } from "./PlanCards";
import { PublicFooter, PublicHeader } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

const FEATURES = [
  { title: "Find real businesses", text: "Search by place and business type, or by topic for bloggers, YouTubers, podcasters and influencers." },
  { title: "Emails from their websites", text: "Contact details and social profiles are gathered from each business's own website." },
  { title: "AI-written, personal emails", text: "Pick an objective and a tone; the AI writes a personal email for every business." },
  { title: "Campaigns with follow-ups", text: "Send through Gmail, SendGrid or your own SMTP server, with follow-up sequences and daily automations." },
  { title: "Track every response", text: "Opens, clicks, replies, bounces, spam reports and unsubscribes, per campaign and per contact." },
  { title: "AI sales replies", text: "Replies are classified by AI, which can answer interested prospects carefully until the sale closes." },
];

export function LandingPage() {
  usePageTitle("");
  const instance = useInstance();
  const contact = instance.data?.contactEmail ?? "";
  const inviteOnly = instance.data?.inviteOnly ?? true;

  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main className="flex-1">
        {inviteOnly ? <InviteOnlyHero contact={contact} /> : <Hero />}
        <section id="features" aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="features-title" className="text-center text-3xl font-bold">
            Everything outreach needs, in one place
          </h2>
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <article key={feature.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold">{feature.title}</h3>
                <p className="mt-2 text-slate-700">{feature.text}</p>
              </article>
            ))}
          </div>
        </section>
        <section id="pricing" aria-labelledby="pricing-title" className="bg-slate-100 px-4 py-16">
          <div className="mx-auto max-w-6xl">
            <h2 id="pricing-title" className="mb-10 text-center text-3xl font-bold">
              Simple monthly plans
            </h2>
            <PlanCards contactEmail={contact} />
          </div>
        </section>
        {inviteOnly ? null : (
          <section aria-labelledby="cta-title" className="mx-auto max-w-3xl px-4 py-16 text-center">
            <h2 id="cta-title" className="text-3xl font-bold">
              Ready to fill your pipeline?
            </h2>
            <p className="mt-3 text-slate-700">Create your account with Google and run your first campaign today.</p>
            <a className={`${buttonClass("primary")} mt-6`} href={GOOGLE_SIGN_IN_PATH}>
              Sign Up
            </a>
          </section>
        )}
      </main>
      <PublicFooter />
    </div>
  );
}

function Hero() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-20 text-center">
      <h1 className="text-4xl font-bold sm:text-5xl">Find clients and win them with AI-written outreach</h1>
      <p className="mt-6 text-lg text-slate-700">
        Find real businesses, write a personal email to each with AI, send your campaign and follow every open,
        click and reply.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a className={buttonClass("primary")} href="/pricing">
          Browse Plans &amp; Pricing
        </a>
        <a className={buttonClass("outline")} href={GOOGLE_SIGN_IN_PATH}>
          Sign Up
        </a>
      </div>
    </section>
  );
}

function InviteOnlyHero({ contact }: { contact: string }) {
  // Until the instance answers there is no address to write to: the links appear with it.
  const request = contact ? mailto(
    contact,
    "Invite Code Request",
    "Hello,\n\nI would like an invite code for the AI Outreach Agent beta.\n\nName:\nCompany:\nWhat I want to use it for:\n\nThank you!",
  ) : undefined;
  return (
    <section className="mx-auto max-w-4xl px-4 py-16 text-center">
      <p className="mx-auto mb-6 inline-block rounded-full bg-amber-100 px-4 py-2 text-sm font-semibold text-amber-900" role="note">
        Pay with crypto and save 50%
      </p>
      <h1 className="text-4xl font-bold sm:text-5xl">AI Outreach Agent: invite-only beta</h1>
      <p className="mt-6 text-lg text-slate-700">
        Find real businesses, write personal emails with AI and track every reply. Access is by invitation while
        we are in beta.
      </p>
      <div className="mx-auto mt-8 max-w-xl rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold">Get your invite code</h2>
        <p className="mt-2 text-slate-700">
          Email <a className="font-medium text-brand underline" href={request}>{contact || "the owner"}</a> for your invite
          code, then sign in with Google and enter it.
        </p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <a className={buttonClass("primary")} href={request}>
            Email for your invite code
          </a>
          <a className={buttonClass("outline")} href="/pricing">
            Browse Plans &amp; Pricing
          </a>
        </div>
      </div>
    </section>
  );
}
