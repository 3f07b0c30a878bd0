/** Terms of Service (B §2.18): acceptance, anti-spam duties, prohibited uses, availability, liability and
 * termination, for a self-hosted instance whose operator comes from configuration. */
import { useInstance } from "../../lib/instance";
import { Section } from "./PrivacyPage";
import { LastUpdated, PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

export function TermsPage() {
  usePageTitle("Terms of Service");
  const instance = useInstance().data;
  const operator = instance?.operatorName ?? "The operator";
  const contact = instance?.contactEmail ?? "";
  return (
    <PublicPage>
      <article className="mx-auto max-w-3xl space-y-6 text-slate-800">
        <header>
          <h1 className="text-4xl font-bold">Terms of Service</h1>
          <LastUpdated />
        </header>
        <Section title="1. Acceptance">
          <p>
            These terms govern your use of this instance of Outreach, operated by <strong>{operator}</strong>. By
            signing in you accept them. If you use the service for an organisation, you accept them on its behalf.
          </p>
        </Section>
        <Section title="2. Your duties as a sender">
          <ul className="list-disc space-y-1 pl-5">
            <li>Send only to businesses and people with a plausible interest in your offer, and identify yourself truthfully.</li>
            <li>Follow the anti-spam and privacy laws that apply to you and your recipients, such as CAN-SPAM, CASL, the GDPR and the ePrivacy rules.</li>
            <li>Keep the unsubscribe link in your emails and never contact an address that has unsubscribed.</li>
            <li>Respect your plan's monthly limit and each sending provider's own rules.</li>
            <li>Review what the AI writes before it goes out; you are responsible for the emails sent in your name.</li>
          </ul>
        </Section>
        <Section title="3. Prohibited uses">
          <ul className="list-disc space-y-1 pl-5">
            <li>Bulk unsolicited email to purchased, rented or scraped personal lists.</li>
            <li>Phishing, malware, fraud, deceptive subject lines or forged sender details.</li>
            <li>Harassment, hateful or illegal content, or content that infringes others' rights.</li>
            <li>Attempts to break, overload or get around the limits and security of the service.</li>
          </ul>
        </Section>
        <Section title="4. Availability">
          <p>
            We work to keep the service running but do not promise it will be uninterrupted. We may pause it for
            maintenance, and features may change. Third-party providers (Google, SendGrid, AI models, map services)
            may limit or change what they offer.
          </p>
        </Section>
        <Section title="5. Liability">
          <p>
            The service is provided “as is”. To the extent the law allows, {operator} is not liable for indirect or
            consequential losses, lost sales or the content of emails you send, and our total liability is limited
            to the fees you paid in the three months before the claim.
          </p>
        </Section>
        <Section title="6. Termination">
          <p>
            You may stop using the service and ask us to delete your account at any time. We may suspend or close an
            account that breaks these terms, in particular for spam complaints or high bounce rates, and will tell
            you why unless the law forbids it.
          </p>
        </Section>
        <Section title="7. Contact">
          <p>
            Questions about these terms: <a className="text-brand underline" href={`mailto:${contact}`}>{contact}</a>.
          </p>
        </Section>
        <a className="text-brand underline" href="/">Back to home</a>
      </article>
    </PublicPage>
  );
}
