/** Step 6 of the builder (A §2 step 6, §4 Launch flow, §5 Launch): the campaign's AI settings, the Test Campaign
 * dialog, and launch with a confirmation, the disabled 'Sending Emails...' button, and live progress until every
 * recipient is done (sent, failed or skipped). */
import { useState } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { toast } from "@outreach/client/toast-store";
import { CampaignControls } from "../../components/campaign-controls";
import { SenderProgressList } from "../../components/sender-progress";
import { count, formatDateTime } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { LAUNCH_CHECK_KEY, campaignProgressKey, type Campaign, type Template } from "./api";
import type { CampaignProgress, Finding, LaunchAnswer, LaunchCheck } from "@outreach/client/api/types";
import { AiSettingsForm } from "./AiSettingsForm";
import { SendingWindowForm } from "./SendingWindowForm";
import { OUTBOX } from "./SenderStep";
import { TestCampaignDialog } from "./TestCampaignDialog";
import { SpamCheckView, isSpam } from "./SpamCheckView";
import { findingText, holdText, launchedText, progressState } from "./progressText";
const POLL_MS = 2000;

/** The first launch rule that fails (A §5 Launch), as a toast title. */
export function launchError(templateId: number | null, businessIds: number[], campaignId: number | null): string | null {
  if (!templateId) return "Template Required";
  if (businessIds.length === 0) return "No Recipients";
  if (!campaignId) return "Campaign Required";
  return null;
}

/** What a campaign's progress bar shows: the emails to send (skipped ones never are) and how many are done. */
export function progressSummary(counts: { sent: number; failed: number; uncertain: number; skipped: number; total: number }) {
  const toSend = counts.total - counts.skipped;
  const finished = counts.sent + counts.failed + counts.uncertain;
  return { toSend, finished, percent: toSend > 0 ? Math.min(100, Math.round((finished / toSend) * 100)) : 100 };
}

/** What a launch does with the chosen businesses; a relaunch emails nobody twice (issue 33.3). */
export function launchCounts(check: Pick<LaunchCheck, "recipients" | "withEmail" | "already">): string {
  const without = check.recipients - check.withEmail - check.already;
  const parts = [`${count(check.withEmail, "email", "emails")} will be sent`];
  if (without > 0) parts.push(`${count(without, "business", "businesses")} without an email address will be skipped`);
  if (check.already > 0) parts.push(`${count(check.already, "business", "businesses")} this campaign emailed already will not be emailed again`);
  return `${parts.join("; ")}.`;
}

/** The senders a launch names: a pool of several, one, or none (the default sender, else the outbox). */
export function senderChoice(sender: string, extraSenders: number[]): { emailConfigIds: number[] } | { emailConfigId: number | null } {
  if (!sender || sender === OUTBOX) return { emailConfigId: null };
  return extraSenders.length > 0 ? { emailConfigIds: [Number(sender), ...extraSenders] } : { emailConfigId: Number(sender) };
}

/** What the campaign's senders can send a day, and when this launch will have gone out. */
export function capacityText(check: Pick<LaunchCheck, "capacityPerDay" | "daysToSend" | "withEmail">): string | null {
  if (check.capacityPerDay == null) return null;
  const days = check.daysToSend == null ? "more than a year" : check.daysToSend <= 1 ? "today" : `in ${check.daysToSend} days`;
  return `Your senders can send ${count(check.capacityPerDay, "email", "emails")} today: ${count(check.withEmail, "email", "emails")} go out ${days}.`;
}

/** Step 6: launch and watch. */
export function LaunchStep({ campaign, template, sender, extraSenders }: { campaign: Campaign; template: Template; sender: string; extraSenders: number[] }) {
  const [confirming, setConfirming] = useState(false);
  const [spamConfirmed, setSpamConfirmed] = useState(false);
  const [launched, setLaunched] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const businessIds = campaign.businessIds ?? [];
  const request = { campaignId: campaign.id, templateId: template.id, businessIds, ...senderChoice(sender, extraSenders) };

  // A launched campaign's progress is read every two seconds while it sends (also for a user who comes back to it).
  const started = launched !== null || ["active", "paused", "completed"].includes(campaign.status);
  const progressQuery = useQuery<CampaignProgress | null>({
    queryKey: campaignProgressKey(campaign.id),
    enabled: started,
    refetchInterval: (query) => (query.state.data?.status === "active" ? POLL_MS : false),
  });
  const progress = started ? progressQuery.data : null;

  const attempt = () => {
    const problem = launchError(template.id, businessIds, campaign.id);
    if (problem) {
      toast({ title: problem, variant: "destructive" });
      return;
    }
    setConfirming(true);
  };

  const launching = useApiMutation({
    mutationFn: () => requestJson<LaunchAnswer>("POST", "/api/campaigns/send", request),
    // A §8: 'Campaign Failed' when the server answers success false; 'Campaign Launch Failed' when the request fails,
    // with the server's words or 'Campaign launch failed'.
    success: (answer) =>
      answer.success ? { title: "Campaign launched", description: launchedText(answer) } : { title: "Campaign Failed", description: answer.message, variant: "destructive" },
    failure: { title: "Campaign Launch Failed", description: "Campaign launch failed" },
    invalidates: [campaignProgressKey(campaign.id), LAUNCH_CHECK_KEY],
    onSuccess: (answer) => {
      if (answer.success) setLaunched(launchedText(answer));
    },
  });
  const launch = () => {
    setConfirming(false);
    launching.mutate();
  };

  const sending = launching.isPending;

  const counts = progress?.progress;
  const summary = counts ? progressSummary(counts) : null;
  // The pre-launch check of exactly what Launch would send; read again whenever the screen is shown.
  const check = useQuery({
    queryKey: [...LAUNCH_CHECK_KEY, request],
    queryFn: () => requestJson<LaunchCheck>("POST", "/api/campaigns/launch-check", request),
    enabled: businessIds.length > 0,
    retry: false,
  });
  const ready = check.data?.ready === true;
  return (
    <div className="space-y-3">
      <p className="text-slate-600">
        Template <strong>{template.name}</strong> to {count(businessIds.length, "selected business", "selected businesses")}.
      </p>
      <SendingWindowForm key={`window-${campaign.id}`} campaign={campaign} />
      <AiSettingsForm key={campaign.id} campaign={campaign} />
      <PreLaunchCheck check={check.data} failure={check.error ? (serverMessage(check.error) ?? "The check failed; please try again") : null} />
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setTesting(true)}>Test Campaign</Button>
        <Button onClick={attempt} disabled={sending || (check.isSuccess && !ready)}>{sending ? "Sending Emails..." : "Launch Campaign"}</Button>
      </div>
      {/* The launch's message while it sends; after that the live state below says what happened. */}
      {launched && (!progress || progress.status === "active") ? <p role="status" className="text-sm text-green-700">{launched}</p> : null}
      {counts ? (
        <div data-testid="send-progress" className="text-sm">
          <div className="mb-1 flex justify-between">
            <span>{progressState(progress)}: {counts.sent} sent, {counts.failed} failed, {counts.skipped} skipped, {counts.queued + counts.sending} queued{counts.uncertain > 0 ? `, ${counts.uncertain} uncertain (may have arrived; the campaign details can send them again)` : ""}</span>
            <span>{summary ? `${summary.finished} of ${count(summary.toSend, "email", "emails")}` : null}</span>
          </div>
          <div className="h-2 rounded bg-slate-200">
            <div className="h-2 rounded bg-brand" style={{ width: `${summary?.percent ?? 0}%` }} />
          </div>
          {progress.statusReason ? <p className="mt-1 text-amber-700">{progress.statusReason}</p> : null}
          {progress.resumingAt ? (
            <p className="mt-1 text-amber-700">
              Resuming after a worker stopped: the emails it held are settled and sending goes on at {formatDateTime(progress.resumingAt)}.
            </p>
          ) : null}
          <SenderProgressList senders={progress.senders} />
          {holdText(progress) ? <p className="mt-1 text-slate-600">{holdText(progress)}</p> : null}
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <CampaignControls campaignId={campaign.id} status={progress.status} />
            <Link to={`/campaign-analytics/${campaign.id}`} className="text-sm text-brand underline">
              View Campaign Analytics
            </Link>
          </div>
        </div>
      ) : null}
      {testing ? <TestCampaignDialog businessIds={businessIds} templateId={template.id} onClose={() => setTesting(false)} /> : null}
      {confirming ? (
        <Dialog title="Launch campaign" onClose={() => setConfirming(false)}>
          {check.data ? (
            <>
              <p data-testid="launch-counts">
                Send "{template.name}" to {count(check.data.recipients, "business", "businesses")}? {launchCounts(check.data)}
              </p>
              {capacityText(check.data) ? <p className="mt-1 text-sm">{capacityText(check.data)}</p> : null}
              <Findings findings={check.data.findings} />
              {check.data.spamCheck ? <SpamCheckView check={check.data.spamCheck} /> : null}
              {isSpam(check.data.spamCheck) ? (
                <label className="mt-2 flex items-center gap-2 text-sm text-red-800">
                  <input type="checkbox" checked={spamConfirmed} onChange={(event) => setSpamConfirmed(event.target.checked)} />
                  Send anyway: I have read the spam check
                </label>
              ) : null}
            </>
          ) : (
            <p>Counting the businesses with an email address...</p>
          )}
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setConfirming(false)}>Cancel</Button>
            <Button onClick={launch} disabled={!ready || (isSpam(check.data?.spamCheck) && !spamConfirmed)}>Send Now</Button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

/** What the pre-launch check found: blocks first (red), then warnings (amber). */
function Findings({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1 text-sm">
      {findings.map((finding) => (
        <li key={finding.kind} data-level={finding.level} className={finding.level === "block" ? "text-red-700" : "text-amber-700"}>
          <strong>{finding.level === "block" ? "Blocks the launch: " : "Warning: "}</strong>
          {findingText(finding)}
        </li>
      ))}
    </ul>
  );
}

/** The pre-launch check in step 6: ready with the counts, or what stops or concerns the launch. */
function PreLaunchCheck({ check, failure }: { check: LaunchCheck | undefined; failure: string | null }) {
  return (
    <section aria-label="Pre-launch check" data-testid="launch-check" className="rounded-md border border-slate-200 p-4">
      <h3 className="text-sm font-semibold">Pre-launch check</h3>
      {failure ? <p className="mt-1 text-sm text-red-700">{failure}</p> : null}
      {!check && !failure ? <p className="mt-1 text-sm text-slate-600">Checking...</p> : null}
      {check ? (
        <>
          <p className="mt-1 text-sm text-slate-700">
            {count(check.withEmail, "email", "emails")} to send, {count(check.recipients - check.withEmail - check.already, "business", "businesses")}{" "}
            without an address skipped{check.already > 0 ? `, ${count(check.already, "business", "businesses")} emailed already` : ""},{" "}
            {check.remainingThisMonth} left this month.{check.ready && check.findings.length === 0 ? " Ready to launch." : ""}
          </p>
          {capacityText(check) ? <p className="mt-1 text-sm text-slate-700" data-testid="launch-capacity">{capacityText(check)}</p> : null}
          <Findings findings={check.findings} />
          {check.spamCheck ? <SpamCheckView check={check.spamCheck} /> : null}
        </>
      ) : null}
    </section>
  );
}
