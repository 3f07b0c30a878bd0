/** Privacy Policy (B §2.18) of a self-hosted instance: what is collected, the Google scopes actually requested,
 * how credentials are protected, no selling, and people's rights. Operator and contact come from configuration. */
import { useInstance } from "../../lib/instance";
import { LastUpdated, PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

export function PrivacyPage() {
  usePageTitle("Privacy Policy");
  const instance = useInstance().data;
  const operator = instance?.operatorName ?? "The operator";
  const contact = instance?.contactEmail ?? "";
  return (
    <PublicPage>
      <article className="mx-auto max-w-3xl space-y-6 text-slate-800">
        <header>
          <h1 className="text-4xl font-bold">Privacy Policy</h1>
          <LastUpdated />
        </header>
        <p>
          This instance of Outreach is run by <strong>{operator}</strong> (“we”), on servers we operate. This policy
          explains what the service stores, why, and what you can ask of us. Write to{" "}
          <a className="text-brand underline" href={`mailto:${contact}`}>{contact}</a> with any question.
        </p>
        <Section title="1. Data we collect">
          <ul className="list-disc space-y-1 pl-5">
            <li>Your account: the email address, first and last name Google shares when you sign in, your plan, limits and sign-in sessions.</li>
            <li>Your work in the product: campaigns, templates, the businesses you find (names, addresses, phone numbers, websites and public email addresses) and the emails you send.</li>
            <li>Results of your emails: deliveries, opens, clicks, replies, bounces, spam reports and unsubscribes.</li>
            <li>Sending credentials you connect: Gmail authorisation tokens, SendGrid API keys or SMTP passwords.</li>
            <li>Technical logs (time, address, page, error) kept to run and secure the service.</li>
            <li>Recipients who unsubscribe: their email address, so that they receive no further outreach.</li>
          </ul>
        </Section>
        <Section title="2. Google account access">
          <p>We ask Google only for what a feature needs, and only when you use it:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li><code>openid</code>, <code>email</code> and <code>profile</code>: to sign you in with your Google account.</li>
            <li><code>gmail.send</code>: only if you choose to send through Gmail, to send the emails you launch. We do not read your mailbox with it.</li>
            <li><code>gmail.readonly</code>: only if you also turn on reply detection for Gmail, to find replies to the emails you sent.</li>
          </ul>
          <p>
            We do not request permission to modify or delete your mail. You can revoke any of these permissions at any
            time in your Google account settings. Data obtained from Google is used only to provide these features,
            is not used for advertising, and is not transferred to others.
          </p>
        </Section>
        <Section title="3. How we protect your data">
          <p>
            Gmail tokens, API keys and passwords are encrypted before they are stored and are never written to logs.
            Sessions use secure, HTTP-only cookies. Links in the emails you send are signed so they cannot be forged.
            Access to the servers is restricted to the operator.
          </p>
        </Section>
        <Section title="4. How we use and share data">
          <p>
            We use your data only to provide the service: finding businesses, writing, sending and tracking your
            emails, and supporting you. We do not sell personal data, and we do not share it except with the
            providers you choose to use through the product (for example Google, SendGrid, an AI model provider or
            your own mail server), which process it to carry out your request.
          </p>
        </Section>
        <Section title="5. Retention">
          <p>
            Your data is kept while your account exists. When you ask us to delete your account, we delete your
            data within 30 days, except unsubscribe records, which we keep so that those people are not contacted again.
          </p>
        </Section>
        <Section title="6. Your rights">
          <p>
            You may ask for a copy of your data, its correction or its deletion, and you may object to or restrict
            its use. Recipients of emails sent through the service can unsubscribe at any time on the{" "}
            <a className="text-brand underline" href="/unsubscribe">unsubscribe page</a>. Write to{" "}
            <a className="text-brand underline" href={`mailto:${contact}`}>{contact}</a>; we answer within 30 days.
          </p>
        </Section>
        <Section title="7. Changes">
          <p>When this policy changes, the date above changes with it; important changes are announced by email.</p>
        </Section>
        <a className="text-brand underline" href="/">Back to home</a>
      </article>
    </PublicPage>
  );
}

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2">
      <h2 className="text-2xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}
