/** Custom Email Setup (B §2.18): the system address, the three options, benefits, a getting-started guide,
 * requirements, FAQ and the Contact Support mail link. */
import { Link } from "react-router";
import { buttonClass } from "../../components/ui/button";
import { useAuth, type User } from "../../lib/auth";
import { mailto, useInstance } from "../../lib/instance";
import { usePageTitle } from "../../lib/title";

const OPTIONS = [
  { n: 1, title: "Your own domain", text: "Send from you@yourcompany.com. We verify your domain with you.", time: "1-2 business days, with our support" },
  { n: 2, title: "Personalized subdomain", text: "Send from you@yourname.<sending domain>. Nothing is needed from you.", time: "Same-day activation, no requirements" },
  { n: 3, title: "Industry-specific subdomain", text: "Send from you@consulting, marketing, realestate or services.<sending domain>.", time: "Instant" },
];

const BENEFITS = [
  { title: "Higher trust", text: "Prospects see your brand in the From line." },
  { title: "Better deliverability", text: "A verified, consistent sender builds reputation with mailbox providers." },
  { title: "Professional image", text: "One address for every campaign, follow-up and reply." },
];

/** The user's system address: their name at the product's sending domain. */
export function systemAddress(user: Pick<User, "firstName" | "email"> | null, domain: string): string {
  const name = (user?.firstName ?? user?.email.split("@")[0] ?? "you").toLowerCase().replace(/[^a-z0-9._-]/g, "");
  return `${name || "you"}@${domain}`;
}

/** Whether mail can go out from this sending domain at all: an address on a loopback name or a bare IP (a fresh
 * instance's `hello.127.0.0.1`) is no address a mailbox provider accepts, so the page offers none. */
export function isPublicSendingDomain(domain: string): boolean {
  const host = domain.toLowerCase().replace(/^hello\./, "");
  if (!host.includes(".") || host.includes(":")) return false; // a bare name, or an IPv6 literal
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return false; // an IPv4 literal
  return !/\.(localhost|local|internal|invalid)$/.test(host);
}

export function CustomEmailPage() {
  usePageTitle("Custom Email");
  const { user } = useAuth();
  const instance = useInstance().data;
  const domain = instance?.sendingDomain ?? "";
  const support = instance?.supportEmails[0] ?? instance?.contactEmail ?? "";
  const body = [
    "Hello,",
    "",
    "I would like to set up a custom sending address.",
    "",
    "Option number (1, 2 or 3):",
    `Account email: ${user?.email ?? ""}`,
    "Desired address or domain:",
    "Industry (for option 3):",
    "",
    "Thank you!",
  ].join("\n");
  return (
    <main className="mx-auto max-w-4xl space-y-8 p-6">
      <Link to="/dashboard" className={buttonClass("ghost")}>
        ← Back to Dashboard
      </Link>
      <header>
        <h1 className="text-3xl font-bold">Custom Email Setup</h1>
        {!domain || isPublicSendingDomain(domain) ? (
          <p className="mt-2 text-slate-700">
            Your system address <strong data-testid="system-address">{domain ? systemAddress(user, domain) : "…"}</strong> sends through this
            instance's sending domain. Want to send from an address of your own? Choose one of three options.
          </p>
        ) : (
          <p className="mt-2 text-slate-700" data-testid="no-system-address">
            This instance has no public sending domain yet ({domain}), so it offers no system address: mail goes out through a sender
            you add in Email Settings. Want to send from an address of your own? Choose one of three options.
          </p>
        )}
      </header>
      <section aria-labelledby="options-title">
        <h2 id="options-title" className="text-2xl font-semibold">
          Options
        </h2>
        <div className="mt-4 grid gap-4 md:grid-cols-3">
          {OPTIONS.map((option) => (
            <article key={option.n} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <h3 className="font-semibold">
                Option {option.n}: {option.title}
              </h3>
              <p className="mt-2 text-slate-700">{option.text.replaceAll("<sending domain>", domain)}</p>
              <p className="mt-2 text-sm text-slate-600">{option.time}</p>
            </article>
          ))}
        </div>
      </section>
      <section aria-label="Benefits" className="grid gap-4 md:grid-cols-3">
        {BENEFITS.map((benefit) => (
          <article key={benefit.title} className="rounded-xl bg-blue-50 p-5">
            <h3 className="font-semibold">{benefit.title}</h3>
            <p className="mt-1 text-slate-700">{benefit.text}</p>
          </article>
        ))}
      </section>
      <section aria-labelledby="start-title">
        <h2 id="start-title" className="text-2xl font-semibold">
          Getting started
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-700">
          <li>Choose the option that suits you.</li>
          <li>
            Contact support by email with the option number, your account email, the address or domain you want, and
            for option 3 your industry.
          </li>
          <li>We set it up within about 24 hours and tell you when it is ready.</li>
        </ol>
      </section>
      <section aria-labelledby="requirements-title">
        <h2 id="requirements-title" className="text-2xl font-semibold">
          Requirements for your own domain (option 1)
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
          <li>You own the domain</li>
          <li>You can change its DNS records</li>
          <li>An existing email address on that domain</li>
          <li>Administrator rights for the domain's email</li>
        </ul>
      </section>
      <section aria-labelledby="faq-title">
        <h2 id="faq-title" className="text-2xl font-semibold">
          Questions
        </h2>
        <dl className="mt-3 space-y-3">
          <div>
            <dt className="font-medium">Does it cost extra?</dt>
            <dd className="text-slate-700">No. Custom email is included in your subscription at no extra fee.</dd>
          </div>
          <div>
            <dt className="font-medium">Can I have more than one custom address?</dt>
            <dd className="text-slate-700">Yes, you can set up several.</dd>
          </div>
          <div>
            <dt className="font-medium">I have no domain. Can I keep my system address?</dt>
            <dd className="text-slate-700">Yes. Your system address keeps working, with or without a custom one.</dd>
          </div>
          <div>
            <dt className="font-medium">What happens to my running campaigns?</dt>
            <dd className="text-slate-700">Existing campaigns continue unchanged.</dd>
          </div>
        </dl>
      </section>
      <a className={buttonClass("primary")} href={mailto(support, "Custom Email Setup Request", body)}>
        Contact Support
      </a>
    </main>
  );
}
