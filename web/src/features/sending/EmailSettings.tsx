/** The Email Settings tab (A §2 Email Settings, §4, §7 Email setup): the current status with the domain check, the
 * saved senders (set default, edit, verify, remove with confirmation), the three levels (Gmail, basic SendGrid,
 * branded SendGrid) and SMTP, the 'Currently Available Features' dialog, the postal address of the footer, and the
 * local outbox, which keeps messages when no sender is set up: nothing leaves the machine. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Dialog } from "../../components/ui/dialog";
import { TextArea, TextField } from "../../components/ui/field";
import { useInstance } from "../../lib/instance";
import { useApiMutation } from "@outreach/client/mutation";
import { HtmlFrame } from "../../components/ui/html-frame";
import { requestJson, serverMessage } from "@outreach/client/request";
import { CONFIGS_KEY, type EmailConfig, PROVIDER_LABELS, REMOVE_CONFIRM, STATUS_KEY, type Verification } from "./api";
import { BasicSendGridLevel } from "./BasicSendGridLevel";
import { BrandedSendGridLevel } from "./BrandedSendGridLevel";
import { GmailLevel } from "./GmailLevel";
import { SmtpLevel } from "./SmtpLevel";
import { repliesNote } from "./rules";
import { SenderStanding } from "./SenderStanding";
import type { ConsentUrl, OutboxMessage, Profile } from "@outreach/client/api/types";

const OUTBOX_KEY = ["/api/outbox"];

const LEVELS = [
  { id: "gmail", label: "Level 1: Gmail" },
  { id: "basic", label: "Level 2: Basic SendGrid" },
  { id: "branded", label: "Level 3: Branded SendGrid" },
  { id: "smtp", label: "SMTP Server" },
] as const;
type Level = (typeof LEVELS)[number]["id"];

export function EmailSettings() {
  const instance = useInstance().data;
  const configs = useQuery({ queryKey: CONFIGS_KEY, queryFn: () => requestJson<EmailConfig[]>("GET", "/api/user/email-configs") });
  const outbox = useQuery({ queryKey: OUTBOX_KEY, queryFn: () => requestJson<OutboxMessage[]>("GET", "/api/outbox") });
  const profile = useQuery({ queryKey: ["/api/user/profile"], queryFn: () => requestJson<Profile>("GET", "/api/user/profile") });
  const [level, setLevel] = useState<Level>("gmail");
  const [removing, setRemoving] = useState<EmailConfig | null>(null);
  const [allowingRead, setAllowingRead] = useState<EmailConfig | null>(null);
  const [editing, setEditing] = useState<EmailConfig | null>(null);
  const [reading, setReading] = useState<OutboxMessage | null>(null);
  const [features, setFeatures] = useState(false);
  const [verification, setVerification] = useState<Verification | null>(null);
  const [postal, setPostal] = useState<string | null>(null);
  // What the field shows is what is saved: the user's edit, else the address on file (never an empty one by default).
  const postalShown = postal ?? profile.data?.postalAddress ?? "";
  const list = configs.data ?? [];
  const current = list.find((config) => config.isDefault && config.isActive);
  const senderKeys = [CONFIGS_KEY, STATUS_KEY];

  const settingDefault = useApiMutation({
    mutationFn: (config: EmailConfig) => requestJson("PUT", `/api/user/email-configs/${config.id}/set-default`),
    success: (_, config) => ({ title: "Default Email Updated", description: `${config.emailAddress} now sends your campaigns.` }),
    failure: { title: "Error", description: "Failed to update default email configuration." },
    invalidates: senderKeys,
  });

  const removingSender = useApiMutation({
    mutationFn: (config: EmailConfig) => requestJson("DELETE", `/api/user/email-configs/${config.id}`),
    success: { title: "Configuration Removed" },
    failure: { title: "Error", description: "Failed to remove email configuration." },
    invalidates: senderKeys,
  });
  const remove = (config: EmailConfig) => {
    setRemoving(null);
    removingSender.mutate(config);
  };

  const verifying = useApiMutation({
    mutationFn: (config?: EmailConfig) => requestJson<Verification>("POST", "/api/user/verify-email-config", config ? { configId: config.id } : undefined),
    success: (answer) =>
      answer.verified
        ? { title: "Email Verified", description: answer.message }
        : { title: "Verification Failed", description: answer.message || "Please check your email configuration and try again", variant: "destructive" },
    failure: { title: "Verification Failed", description: "Please check your email configuration and try again" },
    invalidates: senderKeys,
    onSuccess: setVerification,
  });

  const savingPostal = useApiMutation({
    mutationFn: (postalAddress: string) => requestJson("PUT", "/api/user/profile", { postalAddress }),
    success: { title: "Postal address saved" },
    failure: { title: "Failed to save", description: "Please try again" },
    invalidates: [["/api/user/profile"]],
  });

  return (
    <div className="space-y-4">
      <Card title="Current Status">
        {current ? (
          <p data-testid="sender-status">
            Sending as <strong>{current.sendFromName}</strong> &lt;{current.emailAddress}&gt; through {current.provider === "smtp" ? `SMTP (${current.smtpHost}:${current.smtpPort})` : PROVIDER_LABELS[current.provider] ?? current.provider}.
          </p>
        ) : (
          <p data-testid="sender-status">No sender is set up: messages go to the local outbox below and nothing leaves this machine.</p>
        )}
        <div className="mt-3 flex flex-wrap gap-2">
          {current ? <Button variant="outline" onClick={() => verifying.mutate(undefined)}>Verify Domain Records</Button> : null}
          <Button variant="ghost" onClick={() => setFeatures(true)}>Currently Available Features</Button>
        </div>
        {verification ? (
          <ul aria-label="Domain checks" className="mt-3 space-y-1 text-sm">
            {verification.checks.map((check) => (
              <li key={check.name} className={check.passed ? "text-green-700" : "text-red-700"}>
                <strong>{check.name}</strong> {check.passed ? "✓" : "✗"} {check.detail}
              </li>
            ))}
            {verification.checks.length === 0 ? <li>{verification.message}</li> : null}
          </ul>
        ) : null}
      </Card>

      <Card title="Saved Configurations">
        {list.length === 0 ? (
          <p className="text-slate-600">No saved configurations.</p>
        ) : (
          <ul aria-label="Email configurations" className="space-y-2">
            {list.map((config) => (
              <li key={config.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-3 text-sm">
                <span>
                  <strong>{config.configName}</strong> · {PROVIDER_LABELS[config.provider] ?? config.provider}
                  {config.isDefault ? <span className="ml-2 rounded bg-brand px-2 py-0.5 text-xs text-white">Default</span> : null}
                  {config.isVerified ? <span className="ml-2 text-xs text-green-700">Verified</span> : null}
                  {!config.isActive ? <span className="ml-2 text-amber-700">Inactive{config.statusMessage ? `: ${config.statusMessage}` : ""}</span> : config.statusMessage ? <span className="ml-2 text-xs text-slate-500">{config.statusMessage}</span> : null}
                  {repliesNote(config) ? <span className="block text-xs text-slate-500">{repliesNote(config)}</span> : null}
                  <SenderStanding config={config} />
                </span>
                <span className="flex flex-wrap gap-2">
                  {!config.isDefault ? <Button variant="outline" onClick={() => settingDefault.mutate(config)}>Set Default</Button> : null}
                  {config.provider !== "outbox" && config.provider !== "smtp" ? <Button variant="ghost" onClick={() => setEditing(config)}>Edit</Button> : null}
                  {config.provider !== "outbox" ? <Button variant="ghost" onClick={() => verifying.mutate(config)}>Verify</Button> : null}
                  {config.provider === "gmail" && !config.gmailRead ? <Button variant="outline" onClick={() => setAllowingRead(config)}>Allow Reading Replies</Button> : null}
                  <Button variant="ghost" onClick={() => setRemoving(config)}>Remove</Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title="Set Up a Sender">
        <div role="tablist" aria-label="Email levels" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200">
          {LEVELS.map((item) => (
            <button key={item.id} role="tab" aria-selected={level === item.id} onClick={() => setLevel(item.id)} className={`rounded-t-md px-3 py-2 text-sm ${level === item.id ? "bg-white font-semibold text-brand shadow-sm" : "text-slate-600 hover:bg-slate-100"}`}>
              {item.label}
            </button>
          ))}
        </div>
        <div role="tabpanel">
          {level === "gmail" ? <GmailLevel available={instance?.gmailAvailable ?? false} onAdvanced={() => setLevel("branded")} /> : null}
          {level === "basic" ? <BasicSendGridLevel available={instance?.basicAddressesAvailable ?? false} sendingDomain={instance?.sendingDomain ?? ""} configs={list} /> : null}
          {level === "branded" ? <BrandedSendGridLevel /> : null}
          {level === "smtp" ? <SmtpLevel /> : null}
        </div>
      </Card>

      <Card title="Postal Address">
        <p className="mb-2 text-sm text-slate-600">Every email's footer carries your postal address and an unsubscribe link, as anti-spam laws (CAN-SPAM) ask.</p>
        <TextArea label="Postal address" rows={3} value={postalShown} onChange={(event) => setPostal(event.target.value)} />
        <Button className="mt-2" variant="outline" disabled={!profile.data} onClick={() => savingPostal.mutate(postalShown)}>Save Postal Address</Button>
      </Card>

      <Card title="Local Outbox">
        <p className="mb-2 text-sm text-slate-600">Messages sent without a sender are kept here. Nothing leaves this machine.</p>
        {(outbox.data ?? []).length === 0 ? (
          <p className="text-slate-600">The outbox is empty.</p>
        ) : (
          <ul aria-label="Outbox" className="space-y-1 text-sm">
            {(outbox.data ?? []).map((message) => (
              <li key={message.id}>
                {message.isTest ? <span className="mr-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-700">Test</span> : null}
                <button className="text-left underline" onClick={() => setReading(message)}>{message.subject}</button> — to {message.toEmail}
                {message.status === "replied" ? <span className="ml-2 text-xs text-green-700">Replied</span> : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {removing ? (
        <ConfirmDialog title="Remove configuration" message={REMOVE_CONFIRM} confirmLabel="Remove" onConfirm={() => remove(removing)} onCancel={() => setRemoving(null)} />
      ) : null}
      {allowingRead ? <GmailReadDialog config={allowingRead} onClose={() => setAllowingRead(null)} /> : null}
      {editing ? <EditIdentity config={editing} onClose={() => setEditing(null)} /> : null}
      {features ? <FeaturesDialog gmail={instance?.gmailAvailable ?? false} basic={instance?.basicAddressesAvailable ?? false} onClose={() => setFeatures(false)} /> : null}
      {reading ? (
        <Dialog title={reading.subject} wide onClose={() => setReading(null)}>
          <p className="mb-2 text-sm text-slate-600">
            To {reading.toEmail}
            {reading.isTest ? " · a test send, not campaign mail" : ""}
          </p>
          {/* The stored message as sent: shown in a sandboxed frame, scripts off, nothing fetched (not its pixel). */}
          <HtmlFrame title="Message" html={reading.htmlBody ?? ""} className="h-96" />
          <OutboxReply message={reading} />
        </Dialog>
      ) : null}
    </div>
  );
}

/** What this instance can send through, and what each way needs. */
function FeaturesDialog({ gmail, basic, onClose }: { gmail: boolean; basic: boolean; onClose: () => void }) {
  const rows = [
    { name: "Gmail / Google Workspace (Level 1)", ready: gmail, note: gmail ? "Connect your mailbox with Google's sending permission." : "Needs the administrator to connect Google." },
    { name: "Basic SendGrid address (Level 2)", ready: basic, note: basic ? "An address on this instance's sending domain." : "Needs the administrator to connect SendGrid." },
    { name: "Branded SendGrid (Level 3)", ready: true, note: "Your own SendGrid key and domain." },
    { name: "SMTP server", ready: true, note: "Any mail server you can sign in to." },
    { name: "Local outbox", ready: true, note: "Keeps messages on this machine for trying the product." },
    { name: "Open and click tracking, one-click unsubscribe", ready: true, note: "Signed links in every message." },
  ];
  return (
    <Dialog title="Currently Available Features" onClose={onClose}>
      <ul className="space-y-2 text-sm">
        {rows.map((row) => (
          <li key={row.name}>
            <strong>{row.ready ? "✓" : "—"} {row.name}</strong>
            <p className="text-slate-600">{row.note}</p>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

/** The sender identity of a Gmail or SendGrid configuration: name, reply-to, and a basic address's username. */
function EditIdentity({ config, onClose }: { config: EmailConfig; onClose: () => void }) {
  const [first, ...rest] = config.sendFromName.split(" ");
  const [form, setForm] = useState({ firstName: first ?? "", lastName: rest.join(" "), emailPrefix: config.emailAddress.split("@")[0], replyTo: config.replyTo ?? "" });
  const [error, setError] = useState<string | null>(null);
  const field = (key: keyof typeof form) => ({ value: form[key], onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }) });
  const saving = useApiMutation({
    mutationFn: () => requestJson("PUT", `/api/user/email-configs/${config.id}`, form),
    success: { title: "Email Configuration Saved" },
    invalidates: [CONFIGS_KEY, STATUS_KEY],
    onSuccess: onClose,
    onError: (failure) => setError(serverMessage(failure) ?? "Failed to save email configuration. Please try again."),
  });
  return (
    <Dialog title="Edit sender" onClose={onClose}>
      <form className="grid gap-3" onSubmit={(event) => { event.preventDefault(); saving.mutate(); }}>
        <TextField label="First name" {...field("firstName")} />
        <TextField label="Last name" {...field("lastName")} />
        {config.provider === "sendgrid-basic" ? <TextField label="Email username" {...field("emailPrefix")} /> : null}
        <TextField label="Reply-To" type="email" {...field("replyTo")} />
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={saving.isPending}>Save</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A reply typed as the recipient, to try reply handling without a mailbox (nothing leaves the machine). */
function OutboxReply({ message }: { message: OutboxMessage }) {
  const [body, setBody] = useState("");
  const [replied, setReplied] = useState(message.status === "replied");
  const sending = useApiMutation({
    mutationFn: () => requestJson("POST", `/api/outbox/${message.id}/reply`, { body }),
    success: { title: "Reply recorded", description: `${message.toEmail} now counts as replied; their follow-ups stop.` },
    failure: { title: "Reply not recorded", description: "Please try again" },
    invalidates: [OUTBOX_KEY],
    onSuccess: () => {
      setReplied(true);
      setBody("");
    },
  });
  return (
    <div className="mt-3 space-y-2">
      {replied ? <p className="text-sm text-green-700">This recipient replied.</p> : null}
      <TextArea label={`Reply as ${message.toEmail} (for trying the product)`} rows={3} value={body} onChange={(event) => setBody(event.target.value)} />
      <Button variant="outline" disabled={!body.trim() || sending.isPending} onClick={() => sending.mutate()}>Record Reply</Button>
    </div>
  );
}

/** The optional second Gmail consent: what reading the mailbox is for and what it is not, then Google's screen. */
function GmailReadDialog({ config, onClose }: { config: EmailConfig; onClose: () => void }) {
  const asking = useApiMutation({
    mutationFn: () => requestJson<ConsentUrl>("POST", `/api/user/email-configs/${config.id}/gmail-read`),
    failure: { title: "Error", description: "The permission request could not be started." },
    onSuccess: ({ authUrl }) => window.location.assign(authUrl),
  });
  return (
    <Dialog title="Allow reading replies" onClose={onClose}>
      <div className="space-y-2 text-sm">
        <p>
          Outreach can notice when people answer the emails you send from <strong>{config.emailAddress}</strong>: replies stop their follow-ups, bounces and
          out-of-office answers are recorded, and your analytics show who replied.
        </p>
        <p>For that, Google asks you for a second permission: reading this mailbox. Outreach reads only mail that arrives from now on, keeps only mail that answers one of your campaign emails, and never marks anything as read, moves or deletes it.</p>
        <p>You can take the permission back at any time in your Google Account (Security, Third-party access); sending keeps working without it.</p>
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>Not Now</Button>
        <Button disabled={asking.isPending || asking.isSuccess} onClick={() => asking.mutate()}>{asking.isPending || asking.isSuccess ? "Opening Google..." : "Continue to Google"}</Button>
      </div>
    </Dialog>
  );
}
