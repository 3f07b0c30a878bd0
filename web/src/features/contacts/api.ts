/** Shapes and rules of the contacts screen (B §2.7, §3 Contact stats, §4 badge precedence). */
import type { SentEmail } from "../../lib/serverTypes";

export interface Contact {
  email: string;
  name: string | null;
  phone: string | null;
  address: string | null;
  website: string | null;
  category: string | null;
  messages: number;
  sent: number;
  lastSentAt: number | null;
  deliveredAt: number | null;
  openedAt: number | null;
  clickedAt: number | null;
  repliedAt: number | null;
  bouncedAt: number | null;
  spamReportedAt: number | null;
  unsubscribedAt: number | null;
  lastActivityAt: number;
  /** The badge, by B §4's precedence (the server applies it). */
  status: string;
}

export interface ContactStats {
  totalContacted: number;
  totalOpened: number;
  openRate: number;
  totalClicks: number;
  totalReplied: number;
  replyRate: number;
  totalBounced: number;
  totalSpamReports: number;
}

export interface Received {
  id: number;
  messageId: number | null;
  kind: "reply" | "auto_reply" | "bounce";
  fromEmail: string | null;
  subject: string;
  body: string;
  detail: string | null;
  source: string;
  receivedAt: number;
}

export interface Note {
  id: number;
  body: string;
  createdAt: number;
  updatedAt: number;
}

export interface ContactHistory {
  email: string;
  messages: SentEmail[];
  received: Received[];
  notes: Note[];
}

export const CONTACTS_KEY = "/api/contacts/all";
export const STATS_KEY = "/api/contacts/stats";
export const historyKey = (email: string) => `/api/contacts/history?email=${encodeURIComponent(email)}`;

/** The badges in B §4's order, for the status filter. */
export const BADGES = ["Unsubscribed", "Spam Report", "Bounced", "Replied", "Opened", "Delivered", "Sent", "Failed"];

/** Contacts whose name, email or business category contains the search text, with the chosen badge ('all': any). */
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
  at: number;
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

export function historyTimeline(history: ContactHistory): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  // A reply that was received is shown with its text; its event would say the same again.
  const repliedTo = new Set(history.received.filter((mail) => mail.kind === "reply").map((mail) => mail.messageId));
  for (const message of history.messages) {
    if (message.sentAt) entries.push({ at: message.sentAt, kind: "sent", title: `Sent: ${message.subject}` });
    else entries.push({ at: message.createdAt, kind: "sent", title: `Not sent (${message.status}): ${message.subject}` });
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
  return entries.sort((a, b) => a.at - b.at);
}
