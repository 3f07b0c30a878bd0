/** About (A §2): who runs this instance, the mission, four cards and the external links. Sign In uses /api/login. */
import { mailto, useInstance } from "../../lib/instance";
import { PublicPage, PublicHeader } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

const CARDS = [
  { title: "Author", text: "Outreach is open source: every screen, rule and email it sends can be read, changed and audited." },
  { title: "Instructor", text: "Each step of the campaign builder explains itself, from finding businesses to launching and follow-ups." },
  { title: "Coach", text: "The Personalized plan includes a one-hour session to shape your offer, your list and your first campaign." },
  { title: "Impact", text: "Outreach that respects people: real businesses, personal emails, honest unsubscribes and sending limits." },
];

export function AboutPage() {
  usePageTitle("About");
  const instance = useInstance().data;
  const operator = instance?.operatorName ?? "Outreach";
  const contact = instance?.contactEmail ?? "";
  const header = (
    <PublicHeader
      signIn="/api/login"
      links={[
        { href: "/", label: "Home" },
        { href: "/pricing", label: "Pricing" },
        { href: "/#features", label: "Features" },
      ]}
    />
  );
  return (
    <PublicPage header={header}>
      <article className="mx-auto max-w-3xl space-y-8">
        <header>
          <h1 className="text-4xl font-bold">About {operator}</h1>
          <p className="mt-4 text-lg text-slate-700">
            {operator} runs this instance of Outreach, the self-hosted AI outreach platform built by a small team of
            founders for entrepreneurs, students, sales teams and agencies who would rather write to real people than
            buy lists. Questions, ideas or a story about your first reply?{" "}
            <a className="text-brand underline" href={mailto(contact, "Hello from the About page")}>
              Get in touch
            </a>
            .
          </p>
        </header>
        <section aria-labelledby="mission-title">
          <h2 id="mission-title" className="text-2xl font-semibold">
            Our mission
          </h2>
          <p className="mt-2 text-slate-700">
            Make finding clients fair and personal: help anyone find the businesses that need what they offer, write
            to each of them as a person, and learn from every reply, without spam and without giving up their data.
          </p>
        </section>
        <section aria-label="What we do" className="grid gap-4 sm:grid-cols-2">
          {CARDS.map((card) => (
            <article key={card.title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <h3 className="text-lg font-semibold">{card.title}</h3>
              <p className="mt-2 text-slate-700">{card.text}</p>
            </article>
          ))}
        </section>
        <section aria-labelledby="links-title">
          <h2 id="links-title" className="text-2xl font-semibold">
            Learn more
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {instance?.biographyUrl ? (
              <li>
                <a className="text-brand underline" href={instance.biographyUrl} rel="noopener noreferrer" target="_blank">
                  Full biography
                </a>
              </li>
            ) : null}
            {instance?.coursesUrl ? (
              <li>
                <a className="text-brand underline" href={instance.coursesUrl} rel="noopener noreferrer" target="_blank">
                  Online courses
                </a>
              </li>
            ) : null}
            <li>
              <a className="text-brand underline" href="/contact">
                Contact details
              </a>
            </li>
            <li>
              <a className="text-brand underline" href="/pricing">
                Plans, including the coaching session
              </a>
            </li>
          </ul>
        </section>
      </article>
    </PublicPage>
  );
}
