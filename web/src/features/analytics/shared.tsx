/** Pieces the analytics screens share: metric tiles, status badges, the lazily loaded activity charts and the
 * sandboxed message body. */
import { lazy, Suspense, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { HtmlFrame } from "../../components/ui/html-frame";
import { isHtmlBody, statusLabel, type DayPoint } from "./api";

const ActivityChart = lazy(() => import("./ActivityChart"));

export function Tile({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={`tile-${label}`}>
      <p className="text-sm text-slate-600">{label}</p>
      <p className="text-2xl font-bold">{value}</p>
      {detail ? <p className="text-xs text-slate-500">{detail}</p> : null}
    </div>
  );
}

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
  delivered: "bg-blue-100 text-blue-800",
};

/** A status or engagement badge; campaign statuses show capitalised (B §3), others as given. */
export function Badge({ value }: { value: string }) {
  const label = /^[a-z_]+$/.test(value) ? statusLabel(value) : value;
  return <span className={`inline-block rounded-full border border-slate-200 px-2 py-0.5 text-xs font-medium ${BADGE_TONES[value] ?? "text-slate-700"}`}>{label}</span>;
}

/** Daily charts for a series endpoint; recharts loads only when a chart is shown. */
export function DailyCharts({ path }: { path: string }) {
  const days = useQuery<{ days: DayPoint[] } | null>({ queryKey: [path], refetchInterval: 30_000 });
  if (days.isLoading) return <p className="text-sm text-slate-600">Loading charts...</p>;
  if (!days.data) return <p className="text-sm text-slate-600">Charts are not available right now.</p>;
  return (
    <Suspense fallback={<p className="text-sm text-slate-600">Loading charts...</p>}>
      <ActivityChart days={days.data.days} />
    </Suspense>
  );
}

/** A sent body: HTML in a sandboxed frame (no scripts, no access to the app, nothing fetched), plain text as text. */
export function MessageBody({ body }: { body: string | null }) {
  if (isHtmlBody(body)) {
    return <HtmlFrame title="Message body" html={body ?? ""} />;
  }
  return <pre className="whitespace-pre-wrap rounded border bg-slate-50 p-3 text-sm">{body ?? ""}</pre>;
}
