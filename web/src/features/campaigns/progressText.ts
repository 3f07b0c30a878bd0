/** What a launched campaign's screens say about time (issue 83): which of the sending window, a sender's pace, the
 * daily cap or the monthly limit holds the next email and when it goes, when the next follow-up goes once the first
 * emails have all gone, and when the window opens for a launch or a check. Every time in the user's own time zone. */
import type { CampaignProgress, Finding, LaunchAnswer } from "@outreach/client/api/types";
import { formatDateTime } from "../../lib/format";

type ProgressFacts = Pick<CampaignProgress, "status" | "nextSendAt" | "nextSendReason" | "nextFollowUpAt" | "progress">;

/** The state word of the progress line: waiting for a time is not sending, and follow-ups are not first emails. */
export function progressState(progress: Pick<ProgressFacts, "status" | "nextSendAt" | "nextSendReason" | "nextFollowUpAt"> & { progress?: Pick<CampaignProgress["progress"], "queued" | "sending"> }): string {
  if (progress.status === "completed") return "Completed";
  if (progress.status === "paused") return "Paused";
  const waiting = progress.progress ? progress.progress.queued + progress.progress.sending : 0;
  if (waiting === 0 && progress.nextFollowUpAt) return `Follow-ups scheduled: next on ${formatDateTime(progress.nextFollowUpAt)}`;
  if (!progress.nextSendAt) return "Sending";
  return progress.nextSendReason === "pace" ? "Sending at the sender's pace" : "Waiting";
}

/** What holds the next emails and when they go; null when nothing waits for a later time. */
export function holdText(progress: Pick<ProgressFacts, "status" | "nextSendAt" | "nextSendReason">): string | null {
  if (progress.status !== "active" || !progress.nextSendAt) return null;
  const at = formatDateTime(progress.nextSendAt);
  switch (progress.nextSendReason) {
    case "window":
      return `Waiting for the sending window (in each recipient's local time): the next emails go out ${at}.`;
    case "pace":
      return `Sending at each sender's pace (its daily cap spread over the sending window): the next email goes out ${at}.`;
    case "daily_cap":
      return `Every sender has sent its cap for today: the next emails go out ${at}.`;
    case "monthly_quota":
      return `The monthly email limit is reached: sending goes on ${at}.`;
    case "retry":
      return `A sender could not take some emails: another sender of the campaign tries again ${at}.`;
    default:
      return `The next emails go out ${at}.`;
  }
}

/** A pre-launch finding, with the time it is about in the user's own time. */
export function findingText(finding: Pick<Finding, "message" | "at">): string {
  return finding.at ? `${finding.message} It opens ${formatDateTime(finding.at)} (your time).` : finding.message;
}

/** What a launch says it did: the server's words, and when the window opens for the emails that wait for it. */
export function launchedText(answer: Pick<LaunchAnswer, "message" | "windowOpensAt">): string {
  return answer.windowOpensAt ? `${answer.message} The sending window opens ${formatDateTime(answer.windowOpensAt)} (your time).` : answer.message;
}
