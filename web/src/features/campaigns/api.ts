/** Campaigns, templates and follow-ups from the API, and the labels of campaign statuses (A §4, B §3). */
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "@outreach/client/request";
import type { Campaign, FollowUpRow, Template } from "@outreach/client/api/types";

/** A follow-up as the sequence dialog edits it, with its A/B variants (issue 81): a saved one has its id. */
export type FollowUp = Pick<FollowUpRow, "subject" | "body" | "delayDays" | "variants"> & { id?: number };

export const STATUS_LABELS: Record<string, string> = {
  draft: "Draft",
  searching: "Searching for businesses",
  businesses_selected: "Businesses selected",
  template_selected: "Template ready",
  active: "Active",
  paused: "Paused",
  completed: "Completed",
  archived: "Archived",
};

/** Active is emphasised, paused secondary, the rest outlined (A §4). */
export function statusBadgeClass(status: string): string {
  if (status === "active") return "bg-brand text-white";
  if (status === "paused") return "bg-slate-200 text-slate-800";
  return "border border-slate-300 text-slate-700";
}

export const CAMPAIGNS_KEY = ["/api/campaigns"];
export const TEMPLATES_KEY = ["/api/email-templates"];
/** Every pre-launch check; sends change the quota left, so they refresh it. */
export const LAUNCH_CHECK_KEY = ["/api/campaigns/launch-check"];
/** A campaign's progress (LaunchStep, read while it sends). */
export const campaignProgressKey = (campaignId: number) => [`/api/campaigns/${campaignId}/progress`];

export function useCampaigns(enabled: boolean) {
  return useQuery<Campaign[] | null>({ queryKey: CAMPAIGNS_KEY, enabled });
}

export function useTemplates(enabled = true) {
  return useQuery<Template[] | null>({ queryKey: TEMPLATES_KEY, enabled });
}

/** Uploads one AI education file; the server extracts its text. */
export async function uploadEducationFile(campaignId: number, file: File): Promise<void> {
  const form = new FormData();
  form.append("file", file);
  await apiRequest("POST", `/api/campaigns/${campaignId}/education-files`, form);
}

export type { Campaign, Template };
