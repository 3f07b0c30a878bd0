/** A saved sender's standing in Email Settings (issue 79): today's cap under its ramp-up and the day it reaches its
 * full cap, whether it is out of rotation (why and since when) with Put Back, and the dialog that changes its daily
 * cap and ramp-up. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { TextField } from "../../components/ui/field";
import { formatDate, formatDateTime } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { CONFIGS_KEY, type EmailConfig } from "./api";

/** What a sender may send today, and when it reaches its full cap while it warms up. */
export function capText(config: Pick<EmailConfig, "capToday" | "sentToday" | "dailyCap" | "rampUp" | "fullCapOn">): string {
  const today = `${config.sentToday} of ${config.capToday} sent today`;
  if (config.rampUp && config.fullCapOn) return `${today}; warming up to ${config.dailyCap} a day, reached on ${formatDate(config.fullCapOn)}`;
  return `${today}; its cap is ${config.dailyCap} a day`;
}

export function SenderStanding({ config }: { config: EmailConfig }) {
  const [editing, setEditing] = useState(false);
  const puttingBack = useApiMutation({
    mutationFn: () => requestJson("POST", `/api/user/email-configs/${config.id}/put-back`),
    success: { title: "Sender back in rotation", description: `${config.emailAddress} sends again.` },
    failure: { title: "Error", description: "The sender could not be put back. Please try again." },
    // Its card, and the campaigns that waited for it.
    invalidates: (query) => [CONFIGS_KEY[0], "/api/campaigns"].some((prefix) => String(query.queryKey[0]).startsWith(prefix)),
  });
  const out = config.outAt !== null && config.outAt !== undefined;
  return (
    <span className="block text-xs" data-testid="sender-standing">
      {out ? (
        <span className="block text-red-700">
          Out of rotation since {formatDateTime(config.outAt)}: {config.stateReason}{" "}
          <Button variant="outline" className="ml-1" disabled={puttingBack.isPending} onClick={() => puttingBack.mutate()}>
            Put Back
          </Button>
        </span>
      ) : null}
      {config.provider !== "outbox" ? (
        <span className="block text-slate-600">
          {capText(config)}{" "}
          <button type="button" className="underline" onClick={() => setEditing(true)}>
            Sending limits
          </button>
        </span>
      ) : null}
      {editing ? <SendingLimits config={config} onClose={() => setEditing(false)} /> : null}
    </span>
  );
}

/** The daily cap and the ramp-up a new mailbox warms up with. */
function SendingLimits({ config, onClose }: { config: EmailConfig; onClose: () => void }) {
  const [form, setForm] = useState({ dailyCap: String(config.dailyCap), rampUp: config.rampUp, rampStart: String(config.rampStart), rampStep: String(config.rampStep) });
  const [error, setError] = useState<string | null>(null);
  const saving = useApiMutation({
    mutationFn: () =>
      requestJson("PUT", `/api/user/email-configs/${config.id}`, {
        dailyCap: Number(form.dailyCap),
        rampUp: form.rampUp,
        rampStart: Number(form.rampStart),
        rampStep: Number(form.rampStep),
      }),
    success: { title: "Sending limits saved" },
    invalidates: [CONFIGS_KEY],
    onSuccess: onClose,
    onError: (failure) => setError(serverMessage(failure) ?? "The limits could not be saved. Please try again."),
  });
  const number = (key: "dailyCap" | "rampStart" | "rampStep") => ({
    type: "number",
    min: 1,
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });
  return (
    <Dialog title={`Sending limits of ${config.emailAddress}`} onClose={onClose}>
      <form className="grid gap-3 text-sm" onSubmit={(event) => { event.preventDefault(); saving.mutate(); }}>
        <TextField label="Daily cap (emails a day once warmed up)" {...number("dailyCap")} />
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={form.rampUp} onChange={(event) => setForm({ ...form, rampUp: event.target.checked })} />
          Warm up: start low and send more each day it has sent
        </label>
        {form.rampUp ? (
          <>
            <TextField label="First day's cap" {...number("rampStart")} />
            <TextField label="Added each day it has sent" {...number("rampStep")} />
            <p className="text-slate-600">A new mailbox that sends hundreds of emails on its first day is likely to land in spam.</p>
          </>
        ) : null}
        {error ? <p role="alert" className="text-red-600">{error}</p> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={saving.isPending}>Save</Button>
        </div>
      </form>
    </Dialog>
  );
}
