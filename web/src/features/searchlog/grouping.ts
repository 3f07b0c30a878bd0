/** B §2.14, §9: the most recent search is the log rows with the latest row's search term created within 30 minutes
 * of it, sorted by chunk number; of those, only the latest row's own search (issue 83.10: the builder's search, an
 * automation's daily run and its Run Now may share a term and half an hour, and are separate searches). */
import type { SearchLog } from "@outreach/client/api/types";

export type SearchLogRow = SearchLog;
export const GROUP_WINDOW_MS = 30 * 60 * 1000;
export const EXCLUDED_PREVIEW = 5;
export const RAW_PREVIEW = 500;

export function latestSearch(rows: SearchLogRow[]): SearchLogRow[] {
  if (rows.length === 0) return [];
  const latest = rows.reduce((a, b) => (Date.parse(b.createdAt) > Date.parse(a.createdAt) ? b : a));
  const end = Date.parse(latest.createdAt);
  return rows
    .filter((row) => row.searchId === latest.searchId && row.searchTerm === latest.searchTerm && end - Date.parse(row.createdAt) <= GROUP_WINDOW_MS)
    .sort((a, b) => a.chunkNumber - b.chunkNumber);
}

/** The first five excluded items, then an ellipsis. */
export function excludedPreview(excluded: string): string {
  const items = excluded.split(",").map((item) => item.trim()).filter(Boolean);
  return items.length > EXCLUDED_PREVIEW ? `${items.slice(0, EXCLUDED_PREVIEW).join(", ")}, …` : items.join(", ");
}

export function rawPreview(raw: string): string {
  return raw.length > RAW_PREVIEW ? `${raw.slice(0, RAW_PREVIEW)}…` : raw;
}
