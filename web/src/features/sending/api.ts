/** Calls and shapes of the email settings (A §3 Email config, §7 Email setup). */
import type { DomainCheck, EmailConfig, Verification } from "@outreach/client/api/types";

export const CONFIGS_KEY = ["/api/user/email-configs"];
export const STATUS_KEY = ["/api/user/email-config"];
export const REMOVE_CONFIRM = "Are you sure you want to remove this email configuration?";

export const PROVIDER_LABELS: Record<string, string> = {
  gmail: "Gmail",
  "sendgrid-basic": "Basic SendGrid",
  "sendgrid-custom": "Branded SendGrid",
  smtp: "SMTP",
  outbox: "Local outbox",
};

/** The browser leaves for Google's consent screen after a short pause, so the toast can be read (A §4, §7). */
export function goToGoogle(url: string, delayMs: number) {
  window.setTimeout(() => window.location.assign(url), delayMs);
}

export type { DomainCheck, EmailConfig, Verification };
