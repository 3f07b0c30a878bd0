/** Level 3, branded SendGrid (A §2 four-step guide, §7 Email setup): the user's own SendGrid key (checked for Mail
 * Send by the server, stored encrypted) and their own domain, whose SPF, DKIM and DMARC are checked afterwards. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { useAuth } from "../../lib/auth";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { CONFIGS_KEY } from "./api";

export const SENDGRID_GUIDE = [
  { title: "Create a SendGrid account", body: "Sign up at sendgrid.com; the free plan sends 100 emails a day." },
  { title: "Generate a restricted API key", body: "Settings → API Keys → Create API Key → Restricted Access, with Mail Send set to Full Access." },
  { title: "Verify a single sender", body: "Settings → Sender Authentication → Verify a Single Sender (or authenticate your whole domain)." },
  { title: "Configure it here", body: "Paste the key and your sender details below. The key is checked with SendGrid and stored encrypted." },
];

const EMPTY = { emailSendFrom: "", emailSendFromName: "", businessName: "", emailReplyTo: "", sendgridApiKey: "", customDomain: "" };

export function BrandedSendGridLevel() {
  const user = useAuth().user;
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const saving = useApiMutation({
    mutationFn: (sent: typeof EMPTY) => {
      const domain = sent.customDomain.trim() || sent.emailSendFrom.split("@")[1];
      return requestJson("POST", "/api/user/email-config", { ...sent, customDomain: domain, emailReplyTo: sent.emailReplyTo || user?.email, emailProvider: "sendgrid", tier: "advanced" });
    },
    success: { title: "Email Configuration Saved", description: "SendGrid accepted the key. Verify your domain's records next." },
    invalidates: [CONFIGS_KEY],
    onSuccess: () => setForm(EMPTY),
    onError: (failure) => setError(serverMessage(failure) ?? "Failed to save email configuration. Please try again."),
  });
  const field = (key: keyof typeof EMPTY) => ({ value: form[key], onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }) });

  const save = () => {
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.emailSendFrom.trim())) return setError("Please enter a valid email address");
    if (!form.emailSendFromName.trim() && !form.businessName.trim()) return setError("Sender name is required");
    if (!form.sendgridApiKey.trim()) return setError("SendGrid API key is required");
    setError(null);
    saving.mutate(form);
  };

  return (
    <div className="space-y-4">
      <ol aria-label="SendGrid setup guide" className="grid gap-2 sm:grid-cols-2">
        {SENDGRID_GUIDE.map((step, index) => (
          <li key={step.title} className="rounded-md border border-slate-200 p-3 text-sm">
            <strong>Step {index + 1}: {step.title}</strong>
            <p className="mt-1 text-slate-600">{step.body}</p>
          </li>
        ))}
      </ol>
      <form aria-label="Branded SendGrid sender" className="grid gap-3 sm:grid-cols-2" onSubmit={(event) => { event.preventDefault(); save(); }}>
        <TextField label="Sender email" type="email" {...field("emailSendFrom")} />
        <TextField label="Sender name" {...field("emailSendFromName")} />
        <TextField label="Business name (optional)" {...field("businessName")} />
        <TextField label="Custom domain" placeholder="yourbusiness.com" {...field("customDomain")} />
        <TextField label="Reply-To (optional)" type="email" {...field("emailReplyTo")} />
        <TextField label="SendGrid API key" type="password" autoComplete="off" {...field("sendgridApiKey")} />
        {error ? <p role="alert" className="text-sm text-red-600 sm:col-span-2">{error}</p> : null}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={saving.isPending}>{saving.isPending ? "Checking the key..." : "Save Branded Sender"}</Button>
        </div>
      </form>
    </div>
  );
}
