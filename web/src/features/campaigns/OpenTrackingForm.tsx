/** Whether the campaign's emails carry the open pixel (issue 33.12), with what it costs either way. Kept with the
 * campaign (PUT /api/campaigns/{id} trackOpens). */
import { useState } from "react";
import type { Campaign } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { CAMPAIGNS_KEY } from "./api";

export function OpenTrackingForm({ campaign }: { campaign: Campaign }) {
  // Shown at once; set back when the save fails.
  const [tracked, setTracked] = useState(campaign.trackOpens);
  const saving = useApiMutation({
    mutationFn: (trackOpens: boolean) => requestJson<Campaign>("PUT", `/api/campaigns/${campaign.id}`, { trackOpens }),
    success: (saved) => ({ title: "Campaign updated", description: saved.trackOpens ? "Opens are tracked" : "Opens are not tracked" }),
    failure: { title: "Failed to save campaign", description: "Please try again" },
    invalidates: [CAMPAIGNS_KEY],
    onError: (_, trackOpens) => setTracked(!trackOpens),
  });
  const change = (trackOpens: boolean) => {
    setTracked(trackOpens);
    saving.mutate(trackOpens);
  };
  return (
    <fieldset className="space-y-2 rounded-md border border-slate-200 p-4" aria-label="Open tracking">
      <legend className="px-1 text-sm font-semibold">Open tracking</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={tracked} disabled={saving.isPending} onChange={(event) => change(event.target.checked)} />
        Track opens
      </label>
      <p className="text-xs text-slate-600">
        Opens are counted by an invisible one-pixel image. In a short email, spam filters count that image against it (SpamAssassin adds 1.4
        points); without it, opens are not counted, while clicks and replies still are.
      </p>
    </fieldset>
  );
}
