/** Calls and shapes of the email settings (A §3 Email config, §7 Email setup). */

export interface EmailConfig {
  id: number;
  configName: string;
  sendFromName: string;
  emailAddress: string;
  replyTo: string | null;
  provider: string;
  isActive: boolean;
  isDefault: boolean;
  isVerified: boolean;
  statusMessage: string | null;
  smtpHost: string | null;
  smtpPort: number | null;
  imapHost?: string | null;
  gmailRead?: boolean;
  repliesCheckedAt?: number | null;
  repliesError?: string | null;
}

export interface DomainCheck {
  name: string;
  passed: boolean;
  record: string | null;
  detail: string;
}

export interface Verification {
  verified: boolean;
  domain: string;
  checks: DomainCheck[];
  missing: string[];
  message: string;
}

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
