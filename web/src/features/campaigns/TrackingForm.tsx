/** How the campaign's emails go out (issues 33.12 and 81): plain text alone or HTML, the open pixel, and tracked
 * links, with what tracking costs in one sentence. New campaigns start with plain text and no tracking. Kept with the
 * campaign (PUT /api/campaigns/{id} plainText, trackOpens, trackClicks). */
import { useState } from "react";
import type { Campaign } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { CAMPAIGNS_KEY } from "./api";

type Tracking = Pick<Campaign, "plainText" | "trackOpens" | "trackClicks">;

/** What a change says once saved. */
function savedText(saved: Tracking, change: Partial<Tracking>): string {
  if ("trackOpens" in change) return saved.trackOpens ? "Opens are tracked" : "Opens are not tracked";
  if ("trackClicks" in change) return saved.trackClicks ? "Clicks are tracked" : "Links stay as written";
  return saved.plainText ? "Emails are plain text" : "Emails are HTML";
}

export function TrackingForm({ campaign }: { campaign: Campaign }) {
  // Shown at once; set back when the save fails.
  const [shown, setShown] = useState<Tracking>({ plainText: campaign.plainText, trackOpens: campaign.trackOpens, trackClicks: campaign.trackClicks });
  const saving = useApiMutation({
    mutationFn: (change: Partial<Tracking>) => requestJson<Campaign>("PUT", `/api/campaigns/${campaign.id}`, change),
    success: (saved, change) => ({ title: "Campaign updated", description: savedText(saved, change) }),
    failure: { title: "Failed to save campaign", description: "Please try again" },
    invalidates: [CAMPAIGNS_KEY],
    onError: (_, change) => setShown((now) => ({ ...now, ...Object.fromEntries(Object.entries(change).map(([key, value]) => [key, !value])) })),
  });
  const change = (update: Partial<Tracking>) => {
    setShown((now) => ({ ...now, ...update }));
    saving.mutate(update);
  };
  return (
    <fieldset className="space-y-2 rounded-md border border-slate-200 p-4" aria-label="Tracking and format">
      <legend className="px-1 text-sm font-semibold">Tracking and format</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={shown.plainText} disabled={saving.isPending} onChange={(event) => change({ plainText: event.target.checked })} />
        Plain text only
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={shown.trackOpens && !shown.plainText}
          disabled={saving.isPending || shown.plainText}
          onChange={(event) => change({ trackOpens: event.target.checked })}
        />
        Track opens{shown.plainText ? " (needs HTML)" : ""}
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={shown.trackClicks} disabled={saving.isPending} onChange={(event) => change({ trackClicks: event.target.checked })} />
        Track clicks
      </label>
      <p className="text-xs text-slate-600" data-testid="tracking-cost">
        Tracking costs inbox placement: the open pixel is an image spam filters count against a short email, and Apple Mail opens every
        message anyway, while tracked links hide where they lead; replies are counted either way.
      </p>
    </fieldset>
  );
}
