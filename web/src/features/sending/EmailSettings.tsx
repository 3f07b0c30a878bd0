/** The Email Settings tab (A §2 Email Settings, §7 Email setup): the current status, the saved senders (set
 * default, remove with confirmation), an SMTP sender form checked by the server on save, and the local outbox,
 * which keeps messages when no sender is set up: nothing leaves the machine. */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextArea, TextField } from "../../components/ui/field";
import { toast } from "../../components/ui/toast-store";
import { apiRequest, serverMessage } from "../../lib/request";

export interface EmailConfig {
  id: number;
  configName: string;
  sendFromName: string;
  emailAddress: string;
  replyTo: string | null;
  provider: string;
  isActive: boolean;
  isDefault: boolean;
  isVerified: boolean;
  statusMessage: string | null;
  smtpHost: string | null;
  smtpPort: number | null;
}

interface OutboxMessage {
  id: number;
  toEmail: string;
  subject: string;
  htmlBody: string | null;
  createdAt: number;
}

export const CONFIGS_KEY = ["/api/user/email-configs"];
const OUTBOX_KEY = ["/api/outbox"];
export const REMOVE_CONFIRM = "Are you sure you want to remove this email configuration?";

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await (await apiRequest(method, path, body)).json()) as T;
}

const EMPTY_SMTP = { emailSendFromName: "", emailSendFrom: "", emailReplyTo: "", smtpHost: "", smtpPort: "587", smtpSecurity: "starttls", smtpUsername: "", smtpPassword: "" };

/** The SMTP form's first problem, checked before the server connects. */
export function smtpFormError(form: typeof EMPTY_SMTP): string | null {
  if (!form.emailSendFromName.trim()) return "Sender name is required";
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.emailSendFrom.trim())) return "Please enter a valid email address";
  if (!form.smtpHost.trim()) return "SMTP host is required";
  const port = Number(form.smtpPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return "SMTP port must be between 1 and 65535";
  return null;
}

export function EmailSettings() {
  const queryClient = useQueryClient();
  const configs = useQuery({ queryKey: CONFIGS_KEY, queryFn: () => json<EmailConfig[]>("GET", "/api/user/email-configs") });
  const outbox = useQuery({ queryKey: OUTBOX_KEY, queryFn: () => json<OutboxMessage[]>("GET", "/api/outbox") });
  const [form, setForm] = useState(EMPTY_SMTP);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<EmailConfig | null>(null);
  const [reading, setReading] = useState<OutboxMessage | null>(null);
  const profile = useQuery({ queryKey: ["/api/user/profile"], queryFn: () => json<{ postalAddress: string | null }>("GET", "/api/user/profile") });
  const [postal, setPostal] = useState<string | null>(null);
  const list = configs.data ?? [];
  const current = list.find((config) => config.isDefault && config.isActive);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: CONFIGS_KEY });

  const save = async () => {
    const problem = smtpFormError(form);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await json("POST", "/api/user/email-config", { ...form, emailProvider: "smtp", smtpPort: Number(form.smtpPort), emailReplyTo: form.emailReplyTo || null });
      toast({ title: "Email configuration saved", description: "The SMTP server accepted the connection." });
      setForm(EMPTY_SMTP);
      refresh();
    } catch (failure) {
      setError(serverMessage(failure) ?? "Failed to save the email configuration");
    } finally {
      setSaving(false);
    }
  };

  const setDefault = async (config: EmailConfig) => {
    await json("PUT", `/api/user/email-configs/${config.id}/set-default`);
    toast({ title: "Default sender updated" });
    refresh();
  };

  const remove = async (config: EmailConfig) => {
    setRemoving(null);
    try {
      await json("DELETE", `/api/user/email-configs/${config.id}`);
      toast({ title: "Email configuration removed" });
      refresh();
    } catch (failure) {
      toast({ title: "Could not remove the configuration", description: serverMessage(failure) ?? "Please try again", variant: "destructive" });
    }
  };

  const savePostal = async () => {
    try {
      await json("PUT", "/api/user/profile", { postalAddress: postal ?? "" });
      toast({ title: "Postal address saved" });
      void queryClient.invalidateQueries({ queryKey: ["/api/user/profile"] });
    } catch (failure) {
      toast({ title: "Failed to save", description: serverMessage(failure) ?? "Please try again", variant: "destructive" });
    }
  };

  const field = (key: keyof typeof EMPTY_SMTP) => ({ value: form[key], onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }) });

  return (
    <div className="space-y-4">
      <Card title="Current Status">
        {current ? (
          <p data-testid="sender-status">
            Sending as <strong>{current.sendFromName}</strong> &lt;{current.emailAddress}&gt; through {current.provider === "smtp" ? `SMTP (${current.smtpHost}:${current.smtpPort})` : current.provider}.
          </p>
        ) : (
          <p data-testid="sender-status">No sender is set up: messages go to the local outbox below and nothing leaves this machine.</p>
        )}
      </Card>

      <Card title="Saved Configurations">
        {list.length === 0 ? (
          <p className="text-slate-600">No saved configurations.</p>
        ) : (
          <ul aria-label="Email configurations" className="space-y-2">
            {list.map((config) => (
              <li key={config.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-3 text-sm">
                <span>
                  <strong>{config.configName}</strong> · {config.provider}
                  {config.isDefault ? <span className="ml-2 rounded bg-brand px-2 py-0.5 text-xs text-white">Default</span> : null}
                  {!config.isActive ? <span className="ml-2 text-amber-700">Inactive{config.statusMessage ? `: ${config.statusMessage}` : ""}</span> : null}
                </span>
                <span className="flex gap-2">
                  {!config.isDefault ? <Button variant="outline" onClick={() => void setDefault(config)}>Set Default</Button> : null}
                  <Button variant="ghost" onClick={() => setRemoving(config)}>Remove</Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title="Postal Address">
        <p className="mb-2 text-sm text-slate-600">Every email's footer carries your postal address and an unsubscribe link, as anti-spam laws (CAN-SPAM) ask.</p>
        <TextArea label="Postal address" rows={3} value={postal ?? profile.data?.postalAddress ?? ""} onChange={(event) => setPostal(event.target.value)} />
        <Button className="mt-2" variant="outline" onClick={() => void savePostal()}>Save Postal Address</Button>
      </Card>

      <Card title="SMTP Sender">
        <form aria-label="SMTP sender" className="grid gap-3 sm:grid-cols-2" onSubmit={(event) => { event.preventDefault(); void save(); }}>
          <TextField label="Sender name" {...field("emailSendFromName")} />
          <TextField label="Sender email" type="email" {...field("emailSendFrom")} />
          <TextField label="Reply-To (optional)" type="email" {...field("emailReplyTo")} />
          <TextField label="SMTP host" {...field("smtpHost")} />
          <TextField label="SMTP port" inputMode="numeric" {...field("smtpPort")} />
          <SelectField label="Security" options={[{ value: "starttls", label: "STARTTLS" }, { value: "tls", label: "TLS" }, { value: "none", label: "None" }]} {...field("smtpSecurity")} />
          <TextField label="SMTP username" autoComplete="off" {...field("smtpUsername")} />
          <TextField label="SMTP password" type="password" autoComplete="new-password" {...field("smtpPassword")} />
          {error ? <p role="alert" className="text-sm text-red-600 sm:col-span-2">{error}</p> : null}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={saving}>{saving ? "Checking the server..." : "Save SMTP Sender"}</Button>
          </div>
        </form>
        <p className="mt-2 text-xs text-slate-500">The server is checked (connect and sign in) before the sender is saved; the password is stored encrypted.</p>
      </Card>

      <Card title="Local Outbox">
        <p className="mb-2 text-sm text-slate-600">Messages sent without a sender are kept here. Nothing leaves this machine.</p>
        {(outbox.data ?? []).length === 0 ? (
          <p className="text-slate-600">The outbox is empty.</p>
        ) : (
          <ul aria-label="Outbox" className="space-y-1 text-sm">
            {(outbox.data ?? []).map((message) => (
              <li key={message.id}>
                <button className="text-left underline" onClick={() => setReading(message)}>{message.subject}</button> — to {message.toEmail}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {removing ? (
        <Dialog title="Remove configuration" onClose={() => setRemoving(null)}>
          <p>{REMOVE_CONFIRM}</p>
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setRemoving(null)}>Cancel</Button>
            <Button onClick={() => void remove(removing)}>Remove</Button>
          </div>
        </Dialog>
      ) : null}
      {reading ? (
        <Dialog title={reading.subject} wide onClose={() => setReading(null)}>
          <p className="mb-2 text-sm text-slate-600">To {reading.toEmail}</p>
          {/* The stored message as sent: shown in a sandboxed frame, scripts off. */}
          <iframe title="Message" sandbox="" className="h-96 w-full rounded border" srcDoc={reading.htmlBody ?? ""} />
        </Dialog>
      ) : null}
    </div>
  );
}
