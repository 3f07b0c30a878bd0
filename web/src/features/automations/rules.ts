/** Rules of the automation screens (A §5, B §3, §5, §9): the create form's checks in the spec's words, the test
 * form's limits, the run-result toast and the open rate as shown. */
import type { Automation, AutomationForm, RunResult } from "@outreach/client/api/types";
import { formatDateTime, sentText } from "../../lib/format";

/** The create/edit form as typed (numbers as text, optional ones empty). */
export interface FormState {
  campaignName: string;
  businessType: string;
  geographicArea: string;
  radius: string;
  maxBusinessesPerDay: string;
  emailTemplateId: string;
  maxTotalEmails: string;
  campaignDurationMinutes: string;
  isActive: boolean;
}

/** A new automation's form (B §9: radius 25 miles, 10 a day, active). */
export const NEW_FORM: FormState = {
  campaignName: "",
  businessType: "",
  geographicArea: "",
  radius: "25",
  maxBusinessesPerDay: "10",
  emailTemplateId: "",
  maxTotalEmails: "",
  campaignDurationMinutes: "",
  isActive: true,
};

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** The form's first problem in A §5's words, else the request body. */
export function readForm(form: FormState): { error: string } | { body: AutomationForm } {
  if (form.campaignName.trim() === "") return { error: "Campaign name is required" };
  if (form.businessType.trim() === "") return { error: "Business type is required" };
  if (form.geographicArea.trim() === "") return { error: "Geographic area is required" };
  if (form.emailTemplateId === "") return { error: "Please select an email template" };
  const radius = whole(form.radius);
  if (!(radius >= 1 && radius <= 100)) return { error: "Search radius must be between 1 and 100 miles" };
  const perDay = whole(form.maxBusinessesPerDay);
  if (!(perDay >= 1 && perDay <= 50)) return { error: "Businesses a day must be between 1 and 50" };
  const optional = (text: string, max: number, message: string): number | null | string => {
    if (text.trim() === "") return null;
    const value = whole(text);
    return value >= 1 && value <= max ? value : message;
  };
  const total = optional(form.maxTotalEmails, 1000, "Total emails must be between 1 and 1000");
  if (typeof total === "string") return { error: total };
  const minutes = optional(form.campaignDurationMinutes, 10080, "Duration must be between 1 and 10080 minutes");
  if (typeof minutes === "string") return { error: minutes };
  return {
    body: {
      campaignName: form.campaignName.trim(),
      businessType: form.businessType.trim(),
      geographicArea: form.geographicArea.trim(),
      radius,
      maxBusinessesPerDay: perDay,
      emailTemplateId: Number(form.emailTemplateId),
      maxTotalEmails: total,
      campaignDurationMinutes: minutes,
      isActive: form.isActive,
    },
  };
}

/** The run-result toast (B §9: it stays 8 seconds). */
export function runToast(result: RunResult): { title: string; description: string } {
  if (result.status === "ended" || result.status === "skipped" || result.status === "failed") {
    return { title: "Automation did not send", description: result.message ?? "Nothing was sent" };
  }
  const names = result.emailsReport.map((line) => `${line.businessName} (${line.status})`).join(", ");
  const counts = `${sentText(result.emailsSent, result.emailsWaiting)}, ${result.emailsFailed} failed`;
  if (result.status === "running") return { title: "Automation is running", description: `${counts} so far. See Automation Reports for the rest.` };
  return { title: "Automation run complete", description: names ? `${counts}: ${names}` : `${counts}: no new business with an email address was found` };
}

/** The test form's limits (B §5), first problem first. */
export function testError(form: { testEmail: string; quantity: number; confidenceThreshold: number; autoReplyDelayMinutes: number; autoReplyMaxPerDay: number; templateChosen: boolean }): string | null {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.testEmail.trim())) return "Please enter a valid email address";
  if (!(form.quantity >= 1 && form.quantity <= 5)) return "Quantity must be between 1 and 5";
  if (!(form.confidenceThreshold >= 0 && form.confidenceThreshold <= 1)) return "Confidence threshold must be between 0 and 1";
  if (!(form.autoReplyDelayMinutes >= 0 && form.autoReplyDelayMinutes <= 1440)) return "Reply delay must be between 0 and 1440 minutes";
  if (!(form.autoReplyMaxPerDay >= 1 && form.autoReplyMaxPerDay <= 100)) return "Automatic answers a day must be between 1 and 100";
  if (!form.templateChosen) return "Please select an email template";
  return null;
}

/** An automation's next run as its card says it (issue 83.11): a run due now starts on the scheduler's next pass. */
export function nextRunText(nextRun: string | null | undefined, now: number): string {
  if (!nextRun) return "none";
  return Date.parse(nextRun) <= now + 60_000 ? "within a minute" : formatDateTime(nextRun);
}

/** How often the automation cards are read again: while some emails wait (a sender's pace, the window), the card
 * follows them (issue 83.17); otherwise they change only when the user acts. */
export function cardRefetchMs(automations: Pick<Automation, "emailsWaiting">[] | null | undefined): number | false {
  return (automations ?? []).some((automation) => automation.emailsWaiting > 0) ? 5_000 : false;
}
