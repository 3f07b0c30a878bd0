/** The email-usage meter under the dashboard header: refreshed every 5 minutes, no retry (A §7). */
import { useQuery } from "@tanstack/react-query";
import { USAGE_MESSAGES, planLabel, usageLevel, type EmailUsage } from "./usage";

const FIVE_MINUTES = 5 * 60 * 1000;
const BAR_COLOURS = { ok: "bg-green-500", warning: "bg-orange-500", exceeded: "bg-red-600" };

export function UsageMeter() {
  const usage = useQuery<EmailUsage | null>({ queryKey: ["/api/email-usage"], refetchInterval: FIVE_MINUTES, retry: false });
  if (usage.isLoading) return null;
  if (usage.isError || !usage.data) {
    return (
      <p role="status" className="rounded-md bg-yellow-50 p-3 text-sm text-yellow-800">
        {USAGE_MESSAGES.unavailable}
      </p>
    );
  }
  const { count, limit, planType } = usage.data;
  const { percentText, barPercent, level } = usageLevel(usage.data);
  return (
    <section aria-label="Email usage" className="rounded-md border border-slate-200 bg-white p-3">
      <div className="mb-1 flex justify-between text-sm">
        <span>
          Emails this month: <strong>{count}</strong> of {limit} <span className="text-slate-500">({planLabel(planType)})</span>
        </span>
        <span>{percentText}</span>
      </div>
      <div className="h-2 w-full rounded bg-slate-200">
        <div className={`h-2 rounded ${BAR_COLOURS[level]}`} style={{ width: `${barPercent}%` }} />
      </div>
      {level !== "ok" ? (
        <p className={`mt-2 text-sm ${level === "exceeded" ? "text-red-700" : "text-orange-700"}`}>
          {USAGE_MESSAGES[level]} <a className="underline" href="/purchase-emails">Purchase more emails</a>
        </p>
      ) : null}
    </section>
  );
}
