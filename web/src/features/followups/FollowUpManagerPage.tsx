/** The Follow-up Email Manager (/followup-cronjob, B §2.12, §8, §9): Pending Today with today's date, Send All (n)
 * for what is ready, each pending follow-up with its first email, body, schedule and a Test button; refreshed every
 * 30 s. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Dialog } from "../../components/ui/dialog";
import { TextField } from "../../components/ui/field";
import { HtmlFrame } from "../../components/ui/html-frame";
import { Spinner } from "../../components/ui/spinner";
import type { ManagerPending, SendAllResult, TestResult } from "@outreach/client/api/types";
import { useAuth } from "../../lib/auth";
import { count, formatDate, formatDateTime } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { httpStatusText, requestJson, serverMessage } from "@outreach/client/request";
import { usePageTitle } from "../../lib/title";

export const PENDING_KEY = ["/api/followup-cronjob/pending"];
const THIRTY_SECONDS = 30_000;

/** Scheduled by the end of today (local time): the Pending Today count. */
export function pendingToday(items: Pick<ManagerPending, "scheduledFor">[], now: Date = new Date()): number {
  const endOfDay = new Date(now);
  endOfDay.setHours(23, 59, 59, 999);
  return items.filter((item) => new Date(item.scheduledFor) <= endOfDay).length;
}

export function FollowUpManagerPage() {
  usePageTitle("Follow-up Manager");
  const pending = useQuery<ManagerPending[] | null>({ queryKey: PENDING_KEY, refetchInterval: THIRTY_SECONDS });
  const [testing, setTesting] = useState<ManagerPending | null>(null);
  const items = pending.data ?? [];
  const ready = items.filter((item) => item.ready).length;
  const sending = useApiMutation({
    mutationFn: () => requestJson<SendAllResult>("POST", "/api/followup-cronjob/send-all"),
    success: (answer) => ({ title: "Follow-up emails sent!", description: `${answer.processed} processed` }),
    failure: { title: "Sending failed", description: "Failed to send follow-up emails" },
    // After Send All the pending list is refreshed (B §4), and the analytics with it.
    invalidates: (query) => String(query.queryKey[0]).startsWith("/api/followup-cronjob"),
  });
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Follow-up Email Manager</h1>
        <Link to="/followup-cronjob-analytics" className="text-sm text-brand underline">
          Follow-up Analytics
        </Link>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Card>
          <p className="text-sm text-slate-600">Pending Today</p>
          <p className="text-3xl font-bold" data-testid="pending-today">
            {pendingToday(items)}
          </p>
          <p className="text-xs text-slate-500">{formatDate(new Date().toISOString())}</p>
        </Card>
        <Card>
          <p className="mb-2 text-sm text-slate-600">Follow-ups ready now go out through your sender, within your limits.</p>
          <Button disabled={ready === 0 || sending.isPending} onClick={() => sending.mutate()}>
            {sending.isPending ? "Sending..." : `Send All (${ready})`}
          </Button>
        </Card>
      </div>
      {pending.isLoading ? <Spinner label="Loading follow-ups..." /> : null}
      {pending.isSuccess && items.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-slate-600">No follow-ups scheduled</p>
        </Card>
      ) : null}
      <ul className="flex flex-col gap-3" aria-label="Pending follow-ups">
        {items.map((item) => (
          <li key={`${item.originalEmail.id}-${item.sequenceNumber}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="pending-follow-up">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <p className="font-semibold">{item.followUpTemplate.subject}</p>
                <p className="text-sm text-slate-600">
                  To {item.recipient} · Follow-up #{item.sequenceNumber} · {count(item.followUpTemplate.delayDays, "day", "days")} after{" "}
                  {item.followUpTemplate.timing === "after_send" ? "sending" : "open"}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <span className={`rounded-full px-2 py-0.5 text-xs ${item.ready ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-700"}`}>
                  {item.ready ? "Ready to send" : "Future scheduled"}
                </span>
                <Button variant="outline" onClick={() => setTesting(item)}>
                  Test
                </Button>
              </div>
            </div>
            <p className="mt-2 text-xs text-slate-600">
              Original email: {item.originalEmail.subject} · sent {formatDateTime(item.originalEmail.sentAt)}
              {item.originalEmail.openedAt ? ` · opened ${formatDateTime(item.originalEmail.openedAt)}` : " · not opened yet"}
            </p>
            <div className="mt-2">
              <HtmlFrame title={`Follow-up to ${item.recipient}`} html={item.followUpTemplate.body} className="h-28" />
            </div>
            <p className="mt-2 text-xs text-slate-600">Scheduled for {formatDateTime(item.scheduledFor)}</p>
          </li>
        ))}
      </ul>
      {testing ? <TestDialog item={testing} onClose={() => setTesting(null)} /> : null}
    </main>
  );
}

/** Sends one follow-up, as its prospect would get it, to an address of the user's choice. */
function TestDialog({ item, onClose }: { item: ManagerPending; onClose: () => void }) {
  const { user } = useAuth();
  const [address, setAddress] = useState(user?.email ?? "");
  const testing = useApiMutation({
    mutationFn: () =>
      requestJson<TestResult>("POST", "/api/followup-cronjob/test", {
        originalEmailId: item.originalEmail.id,
        followUpTemplateId: item.followUpTemplate.id,
        recipientEmail: address.trim(),
      }),
    success: (answer) =>
      answer.success ? { title: "Test email sent!", description: answer.message } : { title: "Test failed", description: answer.message, variant: "destructive" },
    // B §8: a non-OK answer reads 'HTTP {status}' unless the server said why.
    failure: (failure) => ({ title: "Test failed", description: serverMessage(failure) ?? httpStatusText(failure) ?? "Failed to send test email" }),
    onSuccess: (answer) => answer.success && onClose(),
  });
  return (
    <Dialog title="Test follow-up" onClose={onClose}>
      <p className="mb-3 text-sm text-slate-600">
        Follow-up #{item.sequenceNumber} to {item.recipient}, sent to your address as a test. It does not count as the prospect's follow-up.
      </p>
      <TextField label="Send the test to" type="email" value={address} onChange={(event) => setAddress(event.target.value)} />
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={testing.isPending || !address.trim()} onClick={() => testing.mutate()}>
          {testing.isPending ? "Sending..." : "Send Test"}
        </Button>
      </div>
    </Dialog>
  );
}
