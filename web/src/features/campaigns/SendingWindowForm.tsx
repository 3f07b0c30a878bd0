/** The campaign's sending window in step 6 (issue 19): the days and hours it sends, in each recipient's local time
 * (from where the business is), and the campaign's own time zone for recipients whose place is unknown. First emails
 * and follow-ups outside the window wait for it to open. Kept with the campaign (PUT /api/campaigns/{id}
 * sendingWindow). */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { SelectField, TextField } from "../../components/ui/field";
import type { Campaign, SendingWindow } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { CAMPAIGNS_KEY, LAUNCH_CHECK_KEY, campaignProgressKey } from "./api";
import { DAYS, fromTimeInput, timeZones, toTimeInput, windowSummary } from "./window";

export function SendingWindowForm({ campaign }: { campaign: Campaign }) {
  const [window, setWindow] = useState<SendingWindow>(campaign.sendingWindow);
  const change = (patch: Partial<SendingWindow>) => setWindow((current) => ({ ...current, ...patch }));
  const toggleDay = (day: string) =>
    change({ days: DAYS.map((entry) => entry.value).filter((value) => (value === day ? !window.days.includes(day) : window.days.includes(value))) });
  const saving = useApiMutation({
    mutationFn: () => requestJson<Campaign>("PUT", `/api/campaigns/${campaign.id}`, { sendingWindow: window }),
    success: { title: "Campaign updated", description: "Sending window saved" },
    failure: { title: "Failed to save campaign", description: "Please try again" },
    // The pre-launch check and the progress say whether the window is open and when the next emails go (issue 83.1).
    invalidates: [CAMPAIGNS_KEY, LAUNCH_CHECK_KEY, campaignProgressKey(campaign.id)],
  });
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" aria-label="Sending window">
      <legend className="px-1 text-sm font-semibold">Sending window</legend>
      <div role="group" aria-label="Days to send on" className="flex flex-wrap gap-3">
        {DAYS.map((day) => (
          <label key={day.value} className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={window.days.includes(day.value)} onChange={() => toggleDay(day.value)} />
            {day.label}
          </label>
        ))}
      </div>
      <div className="grid gap-3 md:grid-cols-3">
        <TextField label="From" type="time" value={toTimeInput(window.start)} onChange={(event) => change({ start: fromTimeInput(event.target.value, false) })} />
        <TextField label="Until" type="time" value={toTimeInput(window.end)} onChange={(event) => change({ end: fromTimeInput(event.target.value, true) })} />
        <SelectField
          label="Time zone when a recipient's is unknown"
          options={timeZones(window.timeZone).map((zone) => ({ value: zone, label: zone }))}
          value={window.timeZone}
          onChange={(event) => change({ timeZone: event.target.value })}
        />
      </div>
      <p className="text-xs text-slate-500">
        {windowSummary(window)} First emails and follow-ups due outside these hours wait until they open, in each recipient's local time (from where the
        business is). Each sender also spreads its daily limit over these hours instead of sending everything at once. Until 00:00 means until midnight.
      </p>
      <Button variant="outline" onClick={() => saving.mutate()} disabled={saving.isPending}>Save Sending Window</Button>
    </fieldset>
  );
}
