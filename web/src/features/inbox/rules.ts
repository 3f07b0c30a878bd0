/** Rules of the Inbox tab (issue 34): the list's address from its filters and cursor, the name of each message in a
 * conversation, the labels, and which key does what. */
import type { InboxThread, ThreadMessage } from "@outreach/client/api/types";

export const THREADS_PATH = "/api/inbox/threads";

/** The quick views: the open conversations, four filters of them, and the ones marked done. */
export const VIEWS = [
  { value: "", label: "All open" },
  { value: "unread", label: "Unread" },
  { value: "interested", label: "Interested" },
  { value: "awaiting", label: "Waiting for approval" },
  { value: "escalated", label: "Escalated" },
  { value: "done", label: "Done" },
] as const;

export const LABELS: { value: NonNullable<InboxThread["label"]>; label: string }[] = [
  { value: "interested", label: "Interested" },
  { value: "meeting_booked", label: "Meeting booked" },
  { value: "not_interested", label: "Not interested" },
  { value: "wrong_person", label: "Wrong person" },
  { value: "out_of_office", label: "Out of office" },
];

export function labelName(label: string | null | undefined): string | null {
  return LABELS.find((item) => item.value === label)?.label ?? null;
}

export interface InboxFilters {
  /** One of VIEWS' values. */
  view: string;
  campaignId: string;
  senderId: string;
  label: string;
  q: string;
}

export const NO_FILTERS: InboxFilters = { view: "", campaignId: "", senderId: "", label: "", q: "" };

/** The list's address for these filters, from the cursor of the page before (none: the first page). */
export function threadsPath(filters: InboxFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (filters.view === "done") params.set("done", "true");
  else if (filters.view) params.set("filter", filters.view);
  if (filters.campaignId) params.set("campaignId", filters.campaignId);
  if (filters.senderId) params.set("senderId", filters.senderId);
  if (filters.label) params.set("label", filters.label);
  if (filters.q.trim()) params.set("q", filters.q.trim());
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `${THREADS_PATH}?${query}` : THREADS_PATH;
}

/** What a message of a conversation is, in words. */
export function messageName(message: Pick<ThreadMessage, "kind" | "step">): string {
  switch (message.kind) {
    case "first":
      return "First email";
    case "follow_up":
      return `Follow-up #${message.step ?? 1}`;
    case "answer":
      return `Answer #${message.step ?? 1}`;
    case "auto_reply":
      return "Automatic reply";
    default:
      return "Reply";
  }
}

export type KeyAction = "next" | "previous" | "open" | "reply" | "done" | "unread";

const KEYS: Record<string, KeyAction> = { j: "next", k: "previous", Enter: "open", r: "reply", e: "done", u: "unread" };

/** Inputs whose keys are not text. */
const CONTROL_INPUTS = ["checkbox", "radio", "button", "submit", "reset"];

/** Whether the focused element takes the keys as text (a field, a select, an editor). */
function takesText(element: HTMLElement): boolean {
  if (element.isContentEditable || element.tagName === "TEXTAREA" || element.tagName === "SELECT") return true;
  return element.tagName === "INPUT" && !CONTROL_INPUTS.includes((element as HTMLInputElement).type);
}

/** Whether Enter activates the focused element itself (a button, a tab, a link). */
function activatesOnEnter(element: HTMLElement): boolean {
  return element.tagName === "BUTTON" || element.tagName === "A" || (element.tagName === "INPUT" && CONTROL_INPUTS.includes((element as HTMLInputElement).type));
}

/** The inbox's keyboard: j/k move, Enter opens, r replies, e marks done, u marks unread; nothing while the user
 * types in a field or holds a modifier. With the focus on a tab or a list item the letters still work (issue 83.9),
 * and Enter stays that control's own. */
export function keyAction(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey">, target: EventTarget | null): KeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const element = target instanceof HTMLElement ? target : null;
  if (element && (takesText(element) || (event.key === "Enter" && activatesOnEnter(element)))) return null;
  return KEYS[event.key] ?? null;
}

/** The selection after a move, kept within the list. */
export function moved(index: number, action: "next" | "previous", count: number): number {
  if (count === 0) return -1;
  const next = action === "next" ? index + 1 : index - 1;
  return Math.min(Math.max(next, 0), count - 1);
}
