/** Follow-up Analytics (/followup-cronjob-analytics, B §2.13, §9): Total Sent, Opened, Clicked and Open Rate, and
 * each sent follow-up with its badges and the first email's subject; refreshed every 60 s. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { Tile } from "../../components/ui/tile";
import type { SentFollowUp } from "@outreach/client/api/types";
import { formatDateTime, percentText } from "../../lib/format";
import { usePageTitle } from "../../lib/title";

const SIXTY_SECONDS = 60_000;

/** The tiles: counts and the open rate as a rounded percent. */
export function followUpTotals(items: Pick<SentFollowUp, "opened" | "clicked">[]) {
  const opened = items.filter((item) => item.opened).length;
  return {
    sent: items.length,
    opened,
    clicked: items.filter((item) => item.clicked).length,
    openRate: items.length ? Math.round((opened / items.length) * 100) : 0,
  };
}

export function FollowUpAnalyticsPage() {
  usePageTitle("Follow-up Analytics");
  const sent = useQuery<SentFollowUp[] | null>({ queryKey: ["/api/followup-cronjob/analytics"], refetchInterval: SIXTY_SECONDS });
  const items = sent.data ?? [];
  const totals = followUpTotals(items);
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Follow-up Analytics</h1>
        <Link to="/followup-cronjob" className="text-sm text-brand underline">
          Follow-up Manager
        </Link>
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile label="Total Sent" value={totals.sent} />
        <Tile label="Opened" value={totals.opened} />
        <Tile label="Clicked" value={totals.clicked} />
        <Tile label="Open Rate" value={percentText(totals.openRate)} />
      </div>
      {sent.isLoading ? <Spinner label="Loading follow-ups..." /> : null}
      {sent.isSuccess && items.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-slate-600">No follow-up data yet</p>
        </Card>
      ) : null}
      <ul className="flex flex-col gap-2" aria-label="Sent follow-ups">
        {items.map((item) => (
          <li key={item.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="sent-follow-up">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-semibold">{item.followUpSubject}</span>
              <span className={`rounded-full px-2 py-0.5 text-xs ${item.opened ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-700"}`}>
                {item.opened ? "Opened" : "Not Opened"}
              </span>
              {item.clicked ? <span className="rounded-full bg-purple-100 px-2 py-0.5 text-xs text-purple-800">Clicked</span> : null}
            </div>
            <p className="text-slate-600">
              To {item.recipientEmail} · Follow-up #{item.sequenceNumber} · sent {formatDateTime(item.sentAt)}
            </p>
            {item.originalSubject ? <p className="text-xs text-slate-500">Original: {item.originalSubject}</p> : null}
          </li>
        ))}
      </ul>
    </main>
  );
}
