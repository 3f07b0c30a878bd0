/** Pieces the analytics screens share: the lazily loaded activity charts and the sandboxed message body. */
import { lazy, Suspense } from "react";
import { useQuery } from "@tanstack/react-query";
import { HtmlFrame } from "../../components/ui/html-frame";
import { isHtmlBody, type DayPoint } from "./api";

const ActivityChart = lazy(() => import("./ActivityChart"));

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
export function MessageBody({ body }: { body?: string | null }) {
  if (isHtmlBody(body)) {
    return <HtmlFrame title="Message body" html={body ?? ""} />;
  }
  return <pre className="whitespace-pre-wrap rounded border bg-slate-50 p-3 text-sm">{body ?? ""}</pre>;
}
