/** Shapes and rules of the contacts screen (B §2.7, §3 Contact stats, §4 badge precedence). */
import type { Contact, ContactHistory, ContactStats, Note, Received } from "@outreach/client/api/types";

export const CONTACTS_KEY = "/api/contacts/all";
export const STATS_KEY = "/api/contacts/stats";
export const historyKey = (email: string) => `/api/contacts/history?email=${encodeURIComponent(email)}`;

/** The badges in B §4's order, for the status filter. */
export const BADGES = ["Unsubscribed", "Spam Report", "Bounced", "Replied", "Opened", "Delivered", "Sent", "Failed"];

/** Contacts whose name, email or business category contains the search text, with the chosen badge ('all' for every badge). */
export function filterContacts(contacts: Contact[], search: string, status: string): Contact[] {
  const needle = search.trim().toLowerCase();
  return contacts.filter((contact) => {
    if (status !== "all" && contact.status !== status) return false;
    if (!needle) return true;
    return [contact.email, contact.name, contact.category].some((field) => field?.toLowerCase().includes(needle));
  });
}

/** One line of a contact's history: a message sent, an event on it, mail received, in time order. */
export interface HistoryEntry {
  /** ISO 8601. */
  at: string;
  kind: "sent" | "event" | "received";
  title: string;
  detail?: string;
}

const EVENT_TITLES: Record<string, string> = {
  open: "Opened",
  click: "Clicked a link",
  delivered: "Delivered",
  bounce: "Bounced",
  spam: "Reported as spam",
  unsubscribe: "Unsubscribed",
  reply: "Replied",
};

const RECEIVED_TITLES: Record<Received["kind"], string> = {
  reply: "Reply received",
  auto_reply: "Automatic answer received",
  bounce: "Bounce notice received",
};

/** What a message was, as the history names it: a first email, follow-up n, or an answer to a reply. */
function messageName(message: ContactHistory["messages"][number]): string {
  if (message.kind === "follow_up") return `Follow-up #${message.step}`;
  if (message.kind === "answer") return "Answer to a reply";
  return "Email";
}

export function historyTimeline(history: ContactHistory): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  // A reply that was received is shown with its text; its event would say the same again.
  const repliedTo = new Set(history.received.filter((mail) => mail.kind === "reply").map((mail) => mail.messageId));
  for (const message of history.messages) {
    const name = messageName(message);
    if (message.sentAt) entries.push({ at: message.sentAt, kind: "sent", title: `${name} sent: ${message.subject}` });
    else entries.push({ at: message.createdAt, kind: "sent", title: `${name} not sent (${message.status}): ${message.subject}` });
    for (const event of message.events) {
      if (event.eventType === "reply" && repliedTo.has(message.id)) continue;
      const title = EVENT_TITLES[event.eventType] ?? event.eventType;
      const how = event.manual ? " (marked by hand)" : event.machine ? " (by a machine: image proxy or scanner)" : "";
      entries.push({ at: event.occurredAt, kind: "event", title: `${title}${how}`, detail: event.url ?? undefined });
    }
  }
  for (const mail of history.received) {
    entries.push({ at: mail.receivedAt, kind: "received", title: `${RECEIVED_TITLES[mail.kind]}: ${mail.subject}`, detail: mail.body });
  }
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

export type { Contact, ContactHistory, ContactStats, Note, Received };
