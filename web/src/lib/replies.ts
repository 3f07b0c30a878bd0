/** Replies as the Responses and Inbox tabs show them: the words for the AI's reading, plain-text editing of an
 * answer (paragraphs in, paragraphs out), and the user's decision on an answer waiting for approval. */
import type { QueryKey } from "@tanstack/react-query";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { textToHtml } from "./format";

export const ACTION_LABELS: Record<string, string> = {
  mark_interested: "Mark interested",
  reply: "Reply",
  schedule_followup: "Schedule follow-up",
  mark_not_interested: "Mark not interested",
};

export const ESCALATION_LABELS: Record<string, string> = {
  price: "Price or quote",
  legal: "Legal / data protection",
  complaint: "Complaint",
  unsubscribe: "Asks to stop",
  human: "Wants a person",
  instruction: "Tries to instruct the AI",
  review: "For a person to read",
};

export const LANGUAGE_NAMES: Record<string, string> = { en: "English", de: "German", fr: "French", es: "Spanish", fi: "Finnish" };

/** An answer's HTML as text to edit: one paragraph per block, separated by a blank line. */
export function htmlToText(html: string): string {
  const document = new DOMParser().parseFromString(html, "text/html");
  const blocks = Array.from(document.body.querySelectorAll("p, li"));
  if (blocks.length === 0) return document.body.textContent?.trim() ?? "";
  return blocks
    .map((block) => {
      const clone = block.cloneNode(true) as HTMLElement;
      clone.querySelectorAll("br").forEach((br) => br.replaceWith("\n"));
      return clone.textContent?.trim() ?? "";
    })
    .filter((text) => text !== "")
    .join("\n\n");
}

/** Approving a waiting answer (as edited: subject and plain text) sends it now; discarding sends nothing. Both
 * refresh `invalidates`; `sending` says where the approved answer goes. */
export function useAnswerDecision(answerId: number, draft: { subject: string; text: string }, invalidates: QueryKey[], sending: string) {
  const approving = useApiMutation({
    mutationFn: () => requestJson("POST", `/api/email-responses/answers/${answerId}/approve`, { subject: draft.subject, body: textToHtml(draft.text) }),
    success: { title: "Answer approved", description: sending },
    failure: { title: "Approval failed", description: "Please try again" },
    invalidates,
  });
  const discarding = useApiMutation({
    mutationFn: () => requestJson("POST", `/api/email-responses/answers/${answerId}/discard`),
    success: { title: "Draft discarded" },
    failure: { title: "Discard failed", description: "Please try again" },
    invalidates,
  });
  return { approving, discarding, busy: approving.isPending || discarding.isPending };
}
