/** Shapes and rules of the analytics screens (B §2.4, §2.10, §2.11, §3 Campaign summary and Campaign email). */
import type { CampaignAnalytics, CampaignDetails, CampaignEmail, CampaignInfo, DayPoint, RecentEmail, Summary } from "@outreach/client/api/types";
import { formatDateTime } from "../../lib/format";

export const ANALYTICS_KEY = "/api/analytics/campaigns";
export const SENT_KEY = "/api/emails/sent?limit=200";
export const ALL_DAYS_KEY = "/api/analytics/daily?days=30";
/** Each sender's figures (issue 79). */
export const SENDERS_KEY = "/api/analytics/senders";
/** Sent follow-ups with their opens and clicks (also read by the Follow-up Analytics page). */
export const FOLLOW_UP_ANALYTICS_KEY = "/api/followup-cronjob/analytics";
export const THIRTY_SECONDS = 30_000;
/** Rows per page of a campaign's email table. */
export const PAGE_SIZE = 200;

export const detailsKey = (id: number | string, offset = 0) => `/api/campaigns/${id}/details?limit=${PAGE_SIZE}&offset=${offset}`;
export const campaignDaysKey = (id: number | string) => `/api/campaigns/${id}/daily?days=30`;

/** A card's metrics (A §9): sent, opened and replies, with failed beside sent when above zero. */
export function cardMetrics(summary: Summary): { label: string; value: string }[] {
  const sent = summary.failed > 0 ? `${summary.totalSent} (${summary.failed} failed)` : `${summary.totalSent}`;
  return [
    { label: "Sent", value: sent },
    { label: "Opened", value: `${summary.opened}` },
    { label: "Replies", value: `${summary.replied}` },
  ];
}

/** B §2.10: the Mark Opened button shows for a sent email not yet opened. */
export function canMarkOpened(email: { status: string; openedAt?: string | null }): boolean {
  return email.status === "sent" && !email.openedAt;
}

/** B §2.10: a body with an html tag renders as HTML, anything else as plain text. */
export function isHtmlBody(body: string | null | undefined): boolean {
  return /<\s*[a-z][a-z0-9]*(\s[^>]*)?>/i.test(body ?? "");
}

/** "1 email", "3 emails". */
export function emailCount(count: number): string {
  return `${count} ${count === 1 ? "email" : "emails"}`;
}

/** Yes or No, as the email table shows flags. */
export function yesNo(flag: boolean): string {
  return flag ? "Yes" : "No";
}

/** Why an email has not gone: in doubt, not sent and why, or still waiting. The campaign details page and the
 * analytics page's email dialog say it alike (issue 83.14). */
export function notSentNote(email: Pick<CampaignEmail, "uncertain" | "notSentReason">): string {
  if (email.uncertain) return email.notSentReason ? `Uncertain: ${email.notSentReason}` : "Uncertain";
  return email.notSentReason ? `Not sent: ${email.notSentReason}` : "Waiting to be sent";
}

/** When a bounce came back and why, 'Unknown reason' when the provider gave none (B §2.11). */
export function bouncedText(email: Pick<CampaignEmail, "bouncedAt" | "bounceReason">): string {
  return `${formatDateTime(email.bouncedAt)} (${email.bounceReason ?? "Unknown reason"})`;
}

export type { CampaignAnalytics, CampaignDetails, CampaignEmail, CampaignInfo, DayPoint, RecentEmail, Summary };
