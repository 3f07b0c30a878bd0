/** Rules of the Responses screen (B §2.9, §5): the test form's messages, the words for readings, bar widths, and
 * plain-text editing of an answer (paragraphs in, paragraphs out). */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The test form's first problem, in B §5's words; null when it may be sent. */
export function testFormError(form: { from: string; subject: string; body: string }): string | null {
  if (!EMAIL.test(form.from.trim())) return "Please enter a valid email address";
  if (form.subject.trim() === "") return "Subject is required";
  if (form.body.trim().length < 10) return "Response body must be at least 10 characters";
  return null;
}

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

/** Each sentiment's share of the readings, in whole percent (0 when there are none). */
export function sentimentShares(breakdown: { positive: number; neutral: number; negative: number }) {
  const total = breakdown.positive + breakdown.neutral + breakdown.negative;
  const share = (count: number) => (total === 0 ? 0 : Math.round((count / total) * 100));
  return { positive: share(breakdown.positive), neutral: share(breakdown.neutral), negative: share(breakdown.negative), total };
}

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

