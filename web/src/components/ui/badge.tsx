/** Status and engagement badges, coloured by what they say. */
import { statusLabel } from "../../lib/format";

const BADGE_TONES: Record<string, string> = {
  active: "bg-brand text-white",
  paused: "bg-slate-200 text-slate-800",
  Issues: "bg-red-100 text-red-800",
  Bounced: "bg-red-100 text-red-800",
  "Spam Report": "bg-red-100 text-red-800",
  Unsubscribed: "bg-amber-100 text-amber-800",
  failed: "bg-red-100 text-red-800",
  bounced: "bg-red-100 text-red-800",
  spam: "bg-red-100 text-red-800",
  Clicked: "bg-purple-100 text-purple-800",
  Replied: "bg-orange-100 text-orange-800",
  replied: "bg-orange-100 text-orange-800",
  Opened: "bg-green-100 text-green-800",
  opened: "bg-green-100 text-green-800",
  Delivered: "bg-blue-100 text-blue-800",
  Skipped: "bg-slate-100 text-slate-600",
  Uncertain: "bg-amber-100 text-amber-800",
  Queued: "bg-slate-100 text-slate-700",
  delivered: "bg-blue-100 text-blue-800",
  Interested: "bg-green-100 text-green-800",
  "Not interested": "bg-slate-200 text-slate-700",
};

/** A prospect's interest as their latest reply showed it, as a badge; nothing when unknown. */
export function InterestBadge({ interest }: { interest?: string | null }) {
  if (interest === "interested") return <Badge value="Interested" />;
  if (interest === "not_interested") return <Badge value="Not interested" />;
  return null;
}

/** A status or engagement badge; campaign statuses show capitalised (B §3), others as given. */
export function Badge({ value }: { value: string }) {
  const label = /^[a-z_]+$/.test(value) ? statusLabel(value) : value;
  return <span className={`inline-block rounded-full border border-slate-200 px-2 py-0.5 text-xs font-medium ${BADGE_TONES[value] ?? "text-slate-700"}`}>{label}</span>;
}
