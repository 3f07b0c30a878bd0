/** Rules of the sender forms (A §5 Sender identity, Different Gmail address form, Different-email choice step). */
import { serverMessage } from "@outreach/client/request";

export const USERNAME_RULE = "Username must be 3-30 characters and contain only letters, numbers, hyphens, and underscores";

export function validUsername(username: string): boolean {
  return /^[A-Za-z0-9_-]{3,30}$/.test(username);
}

/** The availability check runs only from 3 characters (debounced 500 ms by the caller). */
export const USERNAME_CHECK_MIN = 3;
export const USERNAME_CHECK_DELAY_MS = 500;

export interface Problem {
  title: string;
  description: string;
}

/** The different Gmail address form: required, and a Gmail address. */
export function gmailAddressProblem(address: string): Problem | null {
  const value = address.trim().toLowerCase();
  if (!value) return { title: "Email Required", description: "Please enter a Gmail address" };
  if (!/^[^@\s]+@(gmail\.com|googlemail\.com)$/.test(value)) {
    return { title: "Gmail Address Required", description: "Please enter a valid Gmail address (ending with @gmail.com)" };
  }
  return null;
}

/** The different-email choice step only asks for an '@'. */
export function differentEmailProblem(address: string): Problem | null {
  return address.includes("@") ? null : { title: "Invalid Email", description: "Please enter a valid email address" };
}

/** Gmail or Workspace, told from the domain. */
export function googleAccountKind(address: string): "Gmail" | "Workspace" {
  return /@(gmail\.com|googlemail\.com)$/i.test(address.trim()) ? "Gmail" : "Workspace";
}

/** Level 2 counts as configured when the address is on the instance's own sending domain (A §4 Level 2). */
export function isBasicAddress(address: string | null | undefined, sendingDomain: string): boolean {
  return !!address && !!sendingDomain && address.toLowerCase().endsWith(`@${sendingDomain.toLowerCase()}`);
}

export interface SmtpForm {
  emailSendFromName: string;
  emailSendFrom: string;
  emailReplyTo: string;
  smtpHost: string;
  smtpPort: string;
  smtpSecurity: string;
  smtpUsername: string;
  smtpPassword: string;
  /** Optional: the mailbox replies are read from (empty host: replies are not read). */
  imapHost: string;
  imapPort: string;
  imapSecurity: string;
  imapUsername: string;
  imapPassword: string;
}

export const EMPTY_SMTP: SmtpForm = { emailSendFromName: "", emailSendFrom: "", emailReplyTo: "", smtpHost: "", smtpPort: "587", smtpSecurity: "starttls", smtpUsername: "", smtpPassword: "", imapHost: "", imapPort: "993", imapSecurity: "tls", imapUsername: "", imapPassword: "" };

/** The SMTP form's problems by field, checked before the server is asked (empty: none). */
export function smtpFormErrors(form: SmtpForm): Partial<Record<keyof SmtpForm, string>> {
  const errors: Partial<Record<keyof SmtpForm, string>> = {};
  const badPort = (value: string) => {
    const port = Number(value);
    return !Number.isInteger(port) || port < 1 || port > 65535;
  };
  if (!form.emailSendFromName.trim()) errors.emailSendFromName = "Sender name is required";
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.emailSendFrom.trim())) errors.emailSendFrom = "Please enter a valid email address";
  if (form.emailReplyTo.trim() && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.emailReplyTo.trim())) errors.emailReplyTo = "Please enter a valid email address";
  if (!form.smtpHost.trim()) errors.smtpHost = "SMTP host is required";
  if (badPort(form.smtpPort)) errors.smtpPort = "SMTP port must be between 1 and 65535";
  if (form.imapHost.trim()) {
    if (badPort(form.imapPort)) errors.imapPort = "IMAP port must be between 1 and 65535";
    if (!form.imapPassword) errors.imapPassword = "IMAP password is required";
  }
  return errors;
}

/** The SMTP form as the API takes it: numbers as numbers, IMAP only when a host is given. */
export function smtpPayload(form: SmtpForm) {
  const imap = form.imapHost.trim()
    ? { imapHost: form.imapHost.trim(), imapPort: Number(form.imapPort), imapSecurity: form.imapSecurity, imapUsername: form.imapUsername || null, imapPassword: form.imapPassword }
    : { imapHost: null, imapPort: null, imapSecurity: null, imapUsername: null, imapPassword: null };
  return { ...form, ...imap, emailProvider: "smtp", smtpPort: Number(form.smtpPort), emailReplyTo: form.emailReplyTo || null };
}

/** How replies to a sender are detected, in a line for its entry (null when there is nothing to say). */
export function repliesNote(config: { provider: string; imapHost?: string | null; gmailRead?: boolean; repliesCheckedAt?: string | null; repliesError?: string | null }): string | null {
  const where = config.provider === "gmail" ? "this Gmail inbox" : config.imapHost;
  if (config.provider === "gmail" && !config.gmailRead) return "Replies to this address are not detected: Outreach may only send from it. Allow reading replies to detect them.";
  if (config.provider !== "smtp" && config.provider !== "gmail") return null;
  if (!where) return "Replies to this sender are not detected: add its IMAP mailbox to read them.";
  if (config.repliesError) return `Replies could not be read from ${where}: ${config.repliesError}`;
  if (config.repliesCheckedAt) return `Replies are read from ${where} every 5 minutes (last read ${new Date(config.repliesCheckedAt).toLocaleString()}).`;
  return `Replies are read from ${where} every 5 minutes.`;
}

/** The toast for a Gmail setup request that failed (A §8 Gmail config): saving the sender ('Configuration Failed'
 * when the server refused it, 'Setup Failed' otherwise), or preparing the OAuth flow of another address ('OAuth
 * Setup Error'). */
export function gmailSetupFailure(failure: Error, additional: boolean): { title: string; description: string } {
  const status = Number(/^(\d{3}):/.exec(failure.message)?.[1] ?? 0);
  const said = serverMessage(failure);
  if (additional) {
    return { title: "OAuth Setup Error", description: said ?? (status ? "Failed to prepare OAuth flow. Please try again." : "Please try again.") };
  }
  if (status >= 400 && status < 500) return { title: "Configuration Failed", description: said ?? "Failed to save email configuration. Please try again." };
  return { title: "Setup Failed", description: "Failed to configure Gmail integration. Please try again." };
}
