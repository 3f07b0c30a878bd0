/** How the app writes values the server sends: dates and times in the user's locale, status names as labels. */

/** Campaign status labels (B §3): capitalised. */
export function statusLabel(status: string): string {
  return status
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** A date and time in the user's locale, or a dash. */
export function formatDateTime(ms: number | null | undefined): string {
  return ms ? new Date(ms).toLocaleString() : "—";
}

/** A date in the user's locale, or a dash. */
export function formatDate(ms: number | null | undefined): string {
  return ms ? new Date(ms).toLocaleDateString() : "—";
}
