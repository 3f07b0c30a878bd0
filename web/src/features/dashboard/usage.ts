import type { EmailUsage } from "@outreach/client/api/types";
import { percentText } from "../../lib/format";
export type UsageLevel = "ok" | "warning" | "exceeded";

export function usageLevel({ count, limit }: Pick<EmailUsage, "count" | "limit">) {
  const ratio = limit > 0 ? (count / limit) * 100 : count > 0 ? 100 : 0;
  const level: UsageLevel = ratio >= 100 ? "exceeded" : ratio >= 80 ? "warning" : "ok";
  return { percentText: percentText(ratio, 1), barPercent: Math.min(ratio, 100), level };
}

export const USAGE_MESSAGES = {
  exceeded: "You've exceeded your monthly email limit. Contact the owner to upgrade your plan.",
  warning: "You're approaching your monthly email limit. Consider upgrading your plan soon.",
  unavailable: "Unable to load email usage data. Dashboard functionality is still available.",
};

/** The plan a usage meter names, in words (the server sends its code: free_trial, premium, admin, none). */
export function planLabel(planType: string): string {
  return PLAN_LABELS[planType] ?? planType;
}

const PLAN_LABELS: Record<string, string> = {
  free_trial: "Free trial",
  premium: "Premium",
  admin: "Administrator",
  none: "No plan",
};

export type { EmailUsage };
