/** An SMTP sender (beyond the spec, expected by every peer): saved only after the server accepts a connection and
 * sign-in; the password is stored encrypted. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { SelectField, TextField } from "../../components/ui/field";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { CONFIGS_KEY } from "./api";
import { EMPTY_SMTP, type SmtpForm, smtpFormErrors, smtpPayload } from "./rules";

export function SmtpLevel() {
  const [form, setForm] = useState(EMPTY_SMTP);
  // The server's answer (a connection that failed) for the whole form; the form's own checks under each field.
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof SmtpForm, string>>>({});
  const saving = useApiMutation({
    mutationFn: (sent: SmtpForm) => requestJson("POST", "/api/user/email-config", smtpPayload(sent)),
    success: (_, sent) => ({
      title: "Email Configuration Saved",
      description: sent.imapHost.trim() ? "The SMTP and IMAP servers accepted the connection; replies are read every 5 minutes." : "The SMTP server accepted the connection.",
    }),
    invalidates: [CONFIGS_KEY],
    onSuccess: () => setForm(EMPTY_SMTP),
    onError: (failure) => setError(serverMessage(failure) ?? "Failed to save email configuration. Please try again."),
  });
  const field = (key: keyof SmtpForm) => ({ value: form[key], onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }) });
  const checked = (key: keyof SmtpForm) => ({ ...field(key), error: fieldErrors[key] });

  const save = () => {
    const problems = smtpFormErrors(form);
    setFieldErrors(problems);
    setError(null);
    if (Object.keys(problems).length === 0) saving.mutate(form);
  };

  return (
    <div>
      <form aria-label="SMTP sender" className="grid gap-3 sm:grid-cols-2" onSubmit={(event) => { event.preventDefault(); save(); }}>
        <TextField label="Sender name" {...checked("emailSendFromName")} />
        <TextField label="Sender email" type="email" {...checked("emailSendFrom")} />
        <TextField label="Reply-To (optional)" type="email" {...checked("emailReplyTo")} />
        <TextField label="SMTP host" {...checked("smtpHost")} />
        <TextField label="SMTP port" inputMode="numeric" {...checked("smtpPort")} />
        <SelectField label="Security" options={[{ value: "starttls", label: "STARTTLS" }, { value: "tls", label: "TLS" }, { value: "none", label: "None" }]} {...field("smtpSecurity")} />
        <TextField label="SMTP username" autoComplete="off" {...field("smtpUsername")} />
        <TextField label="SMTP password" type="password" autoComplete="new-password" {...field("smtpPassword")} />
        <fieldset className="grid gap-3 rounded border border-slate-200 p-3 sm:col-span-2 sm:grid-cols-2">
          <legend className="px-1 text-sm font-medium">Replies (optional): the IMAP mailbox that receives them</legend>
          <p className="text-xs text-slate-500 sm:col-span-2">
            With a mailbox, replies, out-of-office answers and bounces are read every 5 minutes and shown with each message; mail that answers none of your
            emails is left alone, and nothing is marked read. Without one, replies to this sender are not detected.
          </p>
          <TextField label="IMAP host" placeholder="imap.example.com" {...checked("imapHost")} />
          <TextField label="IMAP port" inputMode="numeric" {...checked("imapPort")} />
          <SelectField label="IMAP security" options={[{ value: "tls", label: "TLS" }, { value: "starttls", label: "STARTTLS" }, { value: "none", label: "None" }]} {...field("imapSecurity")} />
          <TextField label="IMAP username (default: SMTP username)" autoComplete="off" {...field("imapUsername")} />
          <TextField label="IMAP password" type="password" autoComplete="new-password" {...checked("imapPassword")} />
        </fieldset>
        {error ? <p role="alert" className="text-sm text-red-600 sm:col-span-2">{error}</p> : null}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={saving.isPending}>{saving.isPending ? "Checking the servers..." : "Save SMTP Sender"}</Button>
        </div>
      </form>
      <p className="mt-2 text-xs text-slate-500">The server is checked (connect and sign in) before the sender is saved; the password is stored encrypted.</p>
    </div>
  );
}
