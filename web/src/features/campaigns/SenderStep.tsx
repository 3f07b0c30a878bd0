/** Step 5 of the builder (A §2 step 5, §5 Email settings in the builder, §9 sender choices): which senders send the
 * campaign (active configurations, else the local outbox; more than one makes a pool whose mailboxes share the
 * sending, issue 79), what they can send today, the sender name its emails carry and where replies go, with
 * 'Refresh from User Profile' ('Missing Information' without a name in the profile). */
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { SelectField, TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import type { Campaign, EmailConfig, Profile } from "@outreach/client/api/types";
import { switchTab } from "@outreach/client/events";
import { requestJson } from "@outreach/client/request";
import { TrackingForm } from "./TrackingForm";

export const OUTBOX = "outbox";
const PROFILE_KEY = ["/api/user/profile"];

/** The name and address of the profile that 'Refresh from User Profile' copies, or null without a name. */
export function identityFromProfile(profile: Pick<Profile, "firstName" | "lastName" | "email">): { name: string; replyTo: string } | null {
  const name = [profile.firstName, profile.lastName].map((part) => part?.trim()).filter(Boolean).join(" ");
  return name ? { name, replyTo: profile.email } : null;
}

/** An empty field (the fallback applies) or an address (the same rule as the server). */
export function replyToError(value: string): string | null {
  const address = value.trim();
  return address === "" || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address) ? null : "Please enter a valid email address";
}

export type SenderChoice = { sender: string; emailFromName: string; replyTo: string };

/** A §9's order when the user has not picked: their default sender, else their Gmail, else their address on the
 * product's domain (the basic tier's `emailSendFrom`), else an advanced sender (SMTP, branded SendGrid), else the
 * local outbox. */
export function preferredSender(active: Pick<EmailConfig, "id" | "provider" | "isDefault">[]): string {
  const rank = (config: Pick<EmailConfig, "provider" | "isDefault">) =>
    config.isDefault ? 0 : config.provider === "gmail" ? 1 : config.provider === "sendgrid-basic" ? 2 : 3;
  const best = [...active].sort((a, b) => rank(a) - rank(b))[0];
  return best ? String(best.id) : OUTBOX;
}

/** Choices that lead to setting a sender up rather than sending: picked, they open Email Settings. */
export const SETUP = "setup:";

/** A §9's fallbacks when no sender is active: the user's Gmail (a Gmail sender whose grant is gone, else a Gmail
 * login), then an advanced sender with the user's own SendGrid key (turned off). Each needs Email Settings before it
 * can send, and says so; the local outbox stays the last choice. */
export function fallbackChoices(configs: Pick<EmailConfig, "provider" | "isActive" | "emailAddress">[], loginEmail: string | undefined): { value: string; label: string }[] {
  const inactive = configs.filter((config) => !config.isActive);
  const choices: { value: string; label: string }[] = [];
  const gmail = inactive.find((config) => config.provider === "gmail")?.emailAddress ?? (loginEmail?.toLowerCase().endsWith("@gmail.com") ? loginEmail : undefined);
  if (gmail) choices.push({ value: `${SETUP}gmail`, label: `Gmail ${gmail} (connect it in Email Settings to send)` });
  const sendgrid = inactive.find((config) => config.provider === "sendgrid-custom");
  if (sendgrid) choices.push({ value: `${SETUP}sendgrid`, label: `Advanced: SendGrid ${sendgrid.emailAddress} (turned off: check its key in Email Settings)` });
  return choices;
}

/** Step 5: the sender, its name and reply address; `onContinue` gets them once they are valid. */
/** What a pool can send today, in words: the sum of its senders' caps of today. */
export function poolCapacity(pool: Pick<EmailConfig, "capToday" | "state">[]): string {
  const today = pool.filter((config) => config.state !== "out").reduce((sum, config) => sum + config.capToday, 0);
  const senders = pool.length === 1 ? "This sender" : `These ${pool.length} senders`;
  return `${senders} can send ${today} ${today === 1 ? "email" : "emails"} today; each email goes from the one with the most room left.`;
}

export function SenderStep({
  campaign,
  sender,
  extras,
  onSenderChange,
  onExtrasChange,
  onContinue,
  saving,
}: {
  campaign: Campaign;
  sender: string;
  /** More senders of the campaign's pool, besides `sender`. */
  extras: number[];
  onSenderChange: (value: string, picked: boolean) => void;
  onExtrasChange: (extras: number[]) => void;
  onContinue: (choice: SenderChoice) => void;
  saving: boolean;
}) {
  const senders = useQuery({ queryKey: ["/api/user/email-configs"], queryFn: () => requestJson<EmailConfig[]>("GET", "/api/user/email-configs") });
  const profile = useQuery<Profile | null>({ queryKey: PROFILE_KEY });
  const [name, setName] = useState(campaign.emailFromName ?? "");
  const [replyTo, setReplyTo] = useState(campaign.replyTo ?? "");
  const [error, setError] = useState<string | null>(null);
  const active = (senders.data ?? []).filter((config) => config.isActive);
  useEffect(() => {
    if (sender || !senders.isSuccess) return;
    onSenderChange(preferredSender(active), false);
  }, [active, sender, senders.isSuccess, onSenderChange]);

  const chosen = active.find((config) => String(config.id) === sender) ?? null;
  const pool = chosen ? [chosen, ...active.filter((config) => extras.includes(config.id))] : [];
  const fromAddress = pool.length > 0 ? pool.map((config) => config.emailAddress).join(", ") : "the local outbox (nothing leaves this machine)";
  const ownName = profile.data ? identityFromProfile(profile.data)?.name : undefined;
  const defaultName = chosen?.sendFromName || ownName || "";
  const defaultReplyTo = chosen ? chosen.replyTo || chosen.emailAddress : profile.data?.email ?? "your own email";

  const refresh = () => {
    const identity = profile.data ? identityFromProfile(profile.data) : null;
    if (!identity) {
      toast({ title: "Missing Information", description: "Add your first and last name to your profile first.", variant: "destructive" });
      return;
    }
    setName(identity.name);
    setReplyTo(identity.replyTo);
    setError(null);
  };

  const next = () => {
    const problem = replyToError(replyTo);
    setError(problem);
    if (!problem) onContinue({ sender, emailFromName: name.trim(), replyTo: replyTo.trim() });
  };

  const options = [
    ...(active.length > 0
      ? active.map((config) => ({ value: String(config.id), label: `${config.configName} (${config.provider})` }))
      : fallbackChoices(senders.data ?? [], profile.data?.email)),
    { value: OUTBOX, label: "Local outbox (nothing leaves this machine)" },
  ];
  const pick = (value: string) => (value.startsWith(SETUP) ? switchTab("email-settings") : onSenderChange(value, true));
  return (
    <div className="space-y-3">
      <p className="text-slate-600">Senders are connected in Email Settings; only active ones are offered.</p>
      <SelectField label="Send from" options={options} value={sender} onChange={(event) => pick(event.target.value)} />
      {chosen && active.length > 1 ? (
        <fieldset className="rounded-md border border-slate-200 p-3 text-sm">
          <legend className="px-1 font-medium">Also send from</legend>
          <p className="mb-2 text-xs text-slate-500">A cold mailbox stays out of spam only at a few dozen emails a day: more mailboxes share a bigger campaign.</p>
          {active
            .filter((config) => config.id !== chosen.id)
            .map((config) => (
              <label key={config.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={extras.includes(config.id)}
                  onChange={(event) => onExtrasChange(event.target.checked ? [...extras, config.id] : extras.filter((id) => id !== config.id))}
                />
                {config.configName} · {config.capToday} today{config.state === "out" ? " · out of rotation" : ""}
              </label>
            ))}
        </fieldset>
      ) : null}
      <p className="text-sm text-slate-600" data-testid="from-address">
        Emails go out from <strong>{fromAddress}</strong>.{pool.length > 0 ? ` ${poolCapacity(pool)}` : ""}
      </p>
      <TextField
        label="Sender name"
        value={name}
        placeholder={defaultName}
        maxLength={200}
        onChange={(event) => setName(event.target.value)}
      />
      <p className="text-xs text-slate-500">{defaultName ? `Leave empty to use "${defaultName}".` : "Leave empty to send without a name."}</p>
      <TextField
        label="Replies go to"
        type="email"
        value={replyTo}
        placeholder={defaultReplyTo}
        onChange={(event) => setReplyTo(event.target.value)}
        error={error}
      />
      <p className="text-xs text-slate-500">Leave empty to have replies go to {defaultReplyTo}.</p>
      <TrackingForm key={`tracking-${campaign.id}`} campaign={campaign} />
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => switchTab("email-settings")}>Configure More Email Options</Button>
        <Button variant="outline" onClick={refresh} disabled={!profile.data}>Refresh from User Profile</Button>
        <Button onClick={next} disabled={saving || !sender}>Go To Step 6</Button>
      </div>
    </div>
  );
}
