/** Pause, Resume and Stop for a launched campaign (step 6 of the builder and the campaign's analytics page): the
 * buttons its status allows, Stop after a confirmation, and every campaign read refreshed after a change. */
import { useState } from "react";
import type { CampaignProgress } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { Button } from "./ui/button";
import { ConfirmDialog } from "./ui/confirm-dialog";

type Action = "pause" | "resume" | "stop";

const DONE: Record<Action, string> = { pause: "Campaign paused", resume: "Campaign resumed", stop: "Campaign stopped" };

/** Every query about campaigns: their lists, progress, analytics and details. */
function aboutCampaigns(query: { queryKey: readonly unknown[] }): boolean {
  const key = String(query.queryKey[0]);
  return key.startsWith("/api/campaigns") || key.startsWith("/api/analytics");
}

export function CampaignControls({ campaignId, status }: { campaignId: number; status: string }) {
  const [confirmingStop, setConfirmingStop] = useState(false);
  const control = useApiMutation({
    mutationFn: (action: Action) => requestJson<CampaignProgress>("POST", `/api/campaigns/${campaignId}/${action}`),
    success: (answer, action) => ({ title: DONE[action], description: answer.statusReason ?? undefined }),
    failure: { title: "Error", description: "The campaign could not be changed. Please try again." },
    invalidates: aboutCampaigns,
    onSuccess: () => setConfirmingStop(false),
  });
  if (status !== "active" && status !== "paused") return null;
  const run = (action: Action) => control.mutate(action);
  return (
    <div className="flex flex-wrap gap-2" aria-label="Campaign controls" role="group">
      {status === "active" ? (
        <Button variant="outline" disabled={control.isPending} onClick={() => run("pause")}>Pause</Button>
      ) : (
        <Button disabled={control.isPending} onClick={() => run("resume")}>Resume</Button>
      )}
      <Button variant="ghost" disabled={control.isPending} onClick={() => setConfirmingStop(true)}>Stop</Button>
      {confirmingStop ? (
        <ConfirmDialog
          title="Stop campaign"
          message="The emails not sent yet will not be sent. Emails already sent, and their analytics, stay. This cannot be undone."
          confirmLabel="Stop Campaign"
          cancelLabel="Keep Sending"
          busy={control.isPending}
          onConfirm={() => run("stop")}
          onCancel={() => setConfirmingStop(false)}
        />
      ) : null}
    </div>
  );
}
