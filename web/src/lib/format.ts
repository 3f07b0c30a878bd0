/** How the app writes values the server sends: dates and times in the user's locale, status names as labels. */

/** Campaign status labels (B §3): capitalised. */
export function statusLabel(status: string): string {
  return status
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** A date and time (ISO 8601, as the server sends every time) in the user's locale, or a dash. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** Emails sent and still waiting, said the same way on the run toast, the automation card and the run reports. */
export function sentText(sent: number, waiting: number): string {
  return waiting > 0 ? `${sent} sent, ${waiting} waiting` : `${sent} sent`;
}

/** A percentage as every screen writes it, so one figure looks the same wherever it shows: whole (B §9), or with one
 * decimal where the spec asks for it (the usage meter, A §9; an automation's open rate, B §9). */
export function percentText(value: number, decimals: 0 | 1 = 0): string {
  return `${value.toFixed(decimals)}%`;
}

/** B §9: an automation's open rate, a fraction, × 100 with one decimal. */
export function automationOpenRateText(fraction: number): string {
  return percentText(fraction * 100, 1);
}

/** "1 business", "3 businesses". */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A date in the user's locale, or a dash. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString() : "—";
}

/** Edited text as HTML: each paragraph a <p>, single line breaks kept, every character escaped. */
export function textToHtml(text: string): string {
  const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => `<p>${escape(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
