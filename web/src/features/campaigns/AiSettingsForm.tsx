/** The campaign's AI settings in step 6 (A §2 step 6, §9, B §5): sales aggressiveness, the fixed 'Patient' response
 * style, the certainty the AI needs to answer replies by itself, how soon answers go out, which answers wait for the
 * user's approval, how many a day at most, and AI-optimised follow-up timing (on by default). Kept with the campaign
 * (PUT /api/campaigns/{id} aiSettings). */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { SelectField, TextField } from "../../components/ui/field";
import { percentText } from "../../lib/format";
import type { AiSettings, Campaign } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { CAMPAIGNS_KEY } from "./api";

const AGGRESSIVENESS: { value: AiSettings["salesAggressiveness"]; label: string }[] = [
  { value: "soft", label: "Soft" },
  { value: "moderate", label: "Moderate" },
  { value: "assertive", label: "Assertive" },
  { value: "aggressive", label: "Aggressive" },
];
const CERTAINTY: { value: AiSettings["certaintyThreshold"]; label: string }[] = [
  { value: "low", label: "Low (60%+)" },
  { value: "medium", label: "Medium (75%+)" },
  { value: "high", label: "High (90%+)" },
  { value: "manual", label: "Manual (no auto-replies)" },
];
const TIMING: { value: AiSettings["replyTiming"]; label: string }[] = [
  { value: "immediate", label: "Immediate (within 5 minutes)" },
  { value: "quick", label: "Quick (1 to 2 hours)" },
  { value: "business", label: "Business (4 to 8 hours)" },
  { value: "delayed", label: "Delayed (next business day)" },
];

const APPROVAL: { value: NonNullable<AiSettings["humanApproval"]>; label: string }[] = [
  { value: "first_ten", label: "The first 10 answers, then none" },
  { value: "always", label: "Every answer" },
  { value: "never", label: "None" },
];

export function AiSettingsForm({ campaign }: { campaign: Campaign }) {
  const [settings, setSettings] = useState<AiSettings>(campaign.aiSettings);
  const change = (patch: Partial<AiSettings>) => setSettings((current) => ({ ...current, ...patch }));
  const saving = useApiMutation({
    mutationFn: () => requestJson<Campaign>("PUT", `/api/campaigns/${campaign.id}`, { aiSettings: settings }),
    success: { title: "Campaign updated", description: "AI settings saved" },
    failure: { title: "Failed to save campaign", description: "Please try again" },
    invalidates: [CAMPAIGNS_KEY],
  });
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" aria-label="AI settings">
      <legend className="px-1 text-sm font-semibold">AI settings</legend>
      <div className="grid gap-3 md:grid-cols-2">
        <SelectField
          label="Sales aggressiveness"
          options={AGGRESSIVENESS}
          value={settings.salesAggressiveness}
          onChange={(event) => change({ salesAggressiveness: event.target.value as AiSettings["salesAggressiveness"] })}
        />
        <TextField label="Response style" value="Patient" readOnly disabled />
        <SelectField
          label="Certainty threshold"
          options={CERTAINTY}
          value={settings.certaintyThreshold}
          onChange={(event) =>
            // A certainty chosen here replaces an exact threshold.
            change({ certaintyThreshold: event.target.value as AiSettings["certaintyThreshold"], minConfidencePercent: null })
          }
        />
        {settings.minConfidencePercent != null && settings.certaintyThreshold !== "manual" ? (
          <p className="text-sm text-slate-600">
            Answers by itself from {percentText(settings.minConfidencePercent)} (an exact threshold set for this campaign); choosing a certainty replaces it.
          </p>
        ) : null}
        <SelectField
          label="Reply timing"
          options={TIMING}
          value={settings.replyTiming}
          onChange={(event) => change({ replyTiming: event.target.value as AiSettings["replyTiming"] })}
        />
        <SelectField
          label="Answers that wait for your approval"
          options={APPROVAL}
          value={settings.humanApproval ?? "first_ten"}
          onChange={(event) => change({ humanApproval: event.target.value as AiSettings["humanApproval"] })}
        />
        <TextField
          label="Automatic answers a day at most"
          type="number"
          min={1}
          max={100}
          value={settings.autoReplyMaxPerDay ?? 20}
          onChange={(event) => change({ autoReplyMaxPerDay: Number(event.target.value) })}
        />
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={settings.aiOptimisedFollowUpTiming}
          onChange={(event) => change({ aiOptimisedFollowUpTiming: event.target.checked })}
        />
        AI-optimised follow-up timing
      </label>
      <p className="text-xs text-slate-500">
        The AI reads every reply. It answers by itself only when it is at least as sure as the threshold, nothing needs a person (a price, a legal
        matter, a complaint, a request to stop or for a person, or text trying to instruct it), today's limit is not reached and the prospect was
        not answered by it twice already; every other answer waits for you in the Responses tab. Manual means every answer waits. With
        AI-optimised timing, each follow-up goes out inside the sending window at the hour its recipient opened your earlier email, else at the hour
        this campaign's prospects open mail most, else when the window opens.
      </p>
      <Button variant="outline" onClick={() => saving.mutate()} disabled={saving.isPending}>Save AI Settings</Button>
    </fieldset>
  );
}
