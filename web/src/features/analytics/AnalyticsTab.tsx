/** The Campaign Analytics tab (B §2.4, A §9): inner tabs Campaigns, Sent Emails, Automation Reports and Follow-ups,
 * Refresh Data (refetches everything), charts over all campaigns, and the raw data behind a disclosure. */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { CampaignControls } from "../../components/campaign-controls";
import { Badge } from "../../components/ui/badge";
import { switchTab } from "@outreach/client/events";
import { automationOpenRateText, formatDate, formatDateTime, sentText } from "../../lib/format";
import type { Automation, AutomationAnalytics, RunRecord, SenderFigures, SentEmail, SentFollowUp } from "@outreach/client/api/types";
import {
  ALL_DAYS_KEY,
  ANALYTICS_KEY,
  SENT_KEY,
  SENDERS_KEY,
  FOLLOW_UP_ANALYTICS_KEY,
  THIRTY_SECONDS,
  cardMetrics,
  yesNo,
  type CampaignAnalytics,
} from "./api";
import { DailyCharts } from "./shared";
import { useInstance } from "../../lib/instance";

const INNER_TABS = ["Campaigns", "Sent Emails", "Automation Reports", "Follow-ups"] as const;
type InnerTab = (typeof INNER_TABS)[number];

export function AnalyticsTab() {
  const queryClient = useQueryClient();
  const [inner, setInner] = useState<InnerTab>("Campaigns");
  const refreshAll = () => {
    void queryClient.invalidateQueries({
      predicate: (query) => {
        const key = String(query.queryKey[0]);
        return key.startsWith("/api/analytics") || key.startsWith("/api/emails/sent") || key === FOLLOW_UP_ANALYTICS_KEY || key.startsWith("/api/automation");
      },
    });
  };
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <nav role="tablist" aria-label="Analytics" className="flex flex-wrap gap-1">
          {INNER_TABS.map((name) => (
            <button
              key={name}
              role="tab"
              aria-selected={inner === name}
              onClick={() => setInner(name)}
              className={`rounded-md px-3 py-1.5 text-sm ${inner === name ? "bg-brand text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
            >
              {name}
            </button>
          ))}
        </nav>
        <Button variant="outline" onClick={refreshAll}>
          Refresh Data
        </Button>
      </div>
      {inner === "Campaigns" ? <CampaignList /> : null}
      {inner === "Sent Emails" ? <SentEmails /> : null}
      {inner === "Automation Reports" ? <AutomationReports /> : null}
      {inner === "Follow-ups" ? <FollowUps /> : null}
    </div>
  );
}

function CampaignList() {
  const campaigns = useQuery<CampaignAnalytics[] | null>({
    queryKey: [ANALYTICS_KEY],
    refetchOnWindowFocus: true,
    refetchInterval: THIRTY_SECONDS,
  });
  const version = useInstance().data?.version;
  if (campaigns.isLoading) return <p className="text-slate-600">Loading campaigns...</p>;
  if (campaigns.isError) {
    return (
      <Card>
        <p className="text-red-700">Analytics could not be loaded. Try Refresh Data.</p>
      </Card>
    );
  }
  const list = campaigns.data ?? [];
  if (list.length === 0) {
    return (
      <Card>
        <div className="flex flex-col items-center gap-3 py-8 text-center">
          <h2 className="text-lg font-semibold">No campaigns yet</h2>
          <p className="text-slate-600">Campaigns you launch show their sends, opens and replies here.</p>
          <Button onClick={() => switchTab("campaign")}>Build Your First Campaign</Button>
        </div>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">Your campaigns</h2>
        <Button variant="outline" onClick={() => void campaigns.refetch()}>
          Refresh
        </Button>
      </div>
      <ul className="grid gap-3 md:grid-cols-2" aria-label="Campaigns">
        {list.map((campaign) => (
          <li key={campaign.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="campaign-card">
            <div className="flex items-start justify-between gap-2">
              <Link to={`/campaign-analytics/${campaign.id}`} className="font-semibold text-brand underline">
                {campaign.name}
              </Link>
              <Badge value={campaign.status} />
            </div>
            <p className="text-xs text-slate-500">Created {formatDate(campaign.createdAt)}</p>
            {campaign.statusReason ? <p className="mt-1 text-sm text-amber-800">{campaign.statusReason}</p> : null}
            <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
              {cardMetrics(campaign.summary).map((metric) => (
                <div key={metric.label}>
                  <dt className="text-xs text-slate-500">{metric.label}</dt>
                  <dd className="font-semibold">{metric.value}</dd>
                </div>
              ))}
            </dl>
            <Link to={`/campaign-details/${campaign.id}`} className="mt-2 inline-block text-sm text-brand underline">
              Contact details
            </Link>
            <div className="mt-2">
              <CampaignControls campaignId={campaign.id} status={campaign.status} />
            </div>
          </li>
        ))}
      </ul>
      <Card title="All campaigns, last 30 days">
        <DailyCharts path={ALL_DAYS_KEY} />
      </Card>
      <SenderFiguresCard />
      {/* B §2.4: a visible debug panel with the raw data and a version label. */}
      <details className="text-sm" aria-label="Debug panel">
        <summary className="cursor-pointer text-slate-600">
          Show raw data <span data-testid="version-label" className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs">version {version ?? "…"}</span>
        </summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-50 p-3 text-xs">{JSON.stringify(list, null, 2)}</pre>
      </details>
    </div>
  );
}

/** What each sender sent and what came back (issue 79): a mailbox that bounces or draws complaints shows here. */
function SenderFiguresCard() {
  const senders = useQuery<SenderFigures[] | null>({ queryKey: [SENDERS_KEY], refetchInterval: THIRTY_SECONDS });
  const rows = senders.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Card title="Senders">
      <table aria-label="Sender figures" className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1 font-medium">Sender</th>
            <th className="py-1 font-medium">Sent</th>
            <th className="py-1 font-medium">Bounced</th>
            <th className="py-1 font-medium">Replied</th>
            <th className="py-1 font-medium">Spam complaints</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.emailConfigId} className="border-t border-slate-100">
              <td className="py-1">{row.address}{row.removed ? " (removed)" : ""}</td>
              <td className="py-1">{row.sent}</td>
              <td className="py-1">{row.bounced}</td>
              <td className="py-1">{row.replied}</td>
              <td className="py-1">{row.complaints}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function EmailTable({ emails, empty }: { emails: SentEmail[]; empty: string }) {
  if (emails.length === 0) return <p className="text-slate-600">{empty}</p>;
  return (
    <div className="max-h-[400px] overflow-auto">
      <table className="w-full text-left text-sm">
        <thead className="sticky top-0 bg-white">
          <tr className="border-b border-slate-200">
            <th className="p-2">Recipient</th>
            <th className="p-2">Subject</th>
            <th className="p-2">Status</th>
            <th className="p-2">Sent</th>
            <th className="p-2">Opened</th>
            <th className="p-2">Replied</th>
          </tr>
        </thead>
        <tbody>
          {emails.map((email) => (
            <tr key={email.id} className="border-b border-slate-200">
              <td className="p-2">{email.toEmail}</td>
              <td className="p-2">{email.subject}</td>
              <td className="p-2">
                <Badge value={email.status} />
              </td>
              <td className="p-2">{formatDateTime(email.sentAt)}</td>
              <td className="p-2">{formatDateTime(email.openedAt)}</td>
              <td className="p-2">{formatDateTime(email.repliedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SentEmails() {
  const sent = useQuery<SentEmail[] | null>({ queryKey: [SENT_KEY], refetchInterval: THIRTY_SECONDS });
  if (sent.isLoading) return <p className="text-slate-600">Loading sent emails...</p>;
  return (
    <Card title="Sent Emails">
      <EmailTable emails={sent.data ?? []} empty="No emails sent yet." />
    </Card>
  );
}

/** Every automation run (B §3 run record; a completed run shows as Completed) and each automation's figures. */
function AutomationReports() {
  const runs = useQuery<RunRecord[] | null>({ queryKey: ["/api/automation-runs"], refetchInterval: THIRTY_SECONDS });
  const automations = useQuery<Automation[] | null>({ queryKey: ["/api/automations"] });
  const list = runs.data ?? [];
  if (runs.isLoading) return <p className="text-slate-600">Loading automation reports...</p>;
  return (
    <Card title="Automation Reports">
      {(automations.data ?? []).length > 0 ? (
        <ul className="mb-4 grid gap-2 sm:grid-cols-2" aria-label="Automations' figures">
          {(automations.data ?? []).map((automation) => (
            <AutomationFigures key={automation.id} automation={automation} />
          ))}
        </ul>
      ) : null}
      {list.length === 0 ? (
        <p className="text-slate-600">No automation runs yet. Reports of each run appear here once an automation has run.</p>
      ) : (
        <div className="max-h-[400px] overflow-auto">
          <table className="w-full text-left text-sm" aria-label="Automation runs">
            <thead className="sticky top-0 bg-white">
              <tr className="border-b border-slate-200">
                <th className="p-2">Automation</th>
                <th className="p-2">Run</th>
                <th className="p-2">Emails sent</th>
                <th className="p-2">Businesses targeted</th>
                <th className="p-2">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((run) => (
                <tr key={run.id} className="border-b border-slate-200">
                  <td className="p-2">
                    {run.automationName}
                    {run.campaignName !== run.automationName ? <span className="block text-xs text-slate-500">{run.campaignName}</span> : null}
                  </td>
                  <td className="p-2">
                    {formatDateTime(run.runDate)}
                    <span className="block text-xs text-slate-500">{run.manual ? "Run now" : "Daily"}</span>
                  </td>
                  <td className="p-2">{sentText(run.emailsSent, run.emailsWaiting)}</td>
                  <td className="p-2">{run.businessesTargeted}</td>
                  <td className="p-2">
                    {runStatus(run.status)}
                    {run.error ? <span className="block text-xs text-slate-500">{run.error}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** A run's status in words: B §3 shows a finished run as Completed. */
export function runStatus(status: string): string {
  const words: Record<string, string> = { running: "Running", completed: "Completed", ended: "Ended", failed: "Failed", skipped: "Skipped" };
  return words[status] ?? status;
}

function AutomationFigures({ automation }: { automation: Automation }) {
  const figures = useQuery<AutomationAnalytics | null>({ queryKey: [`/api/automations/${automation.id}/analytics`] });
  const data = figures.data;
  return (
    <li className="rounded-md border border-slate-200 p-2 text-sm" data-testid="automation-figures">
      <p className="font-semibold">{automation.campaignName}</p>
      {data ? (
        <p className="text-slate-600">
          {data.emailsSent} sent · {data.emailsOpened} opened · {data.emailsReplied} replied · {automationOpenRateText(data.openRate)} open rate
        </p>
      ) : null}
    </li>
  );
}

/** Sent follow-ups with their opens and clicks (the same list as Follow-up Analytics). */
function FollowUps() {
  const sent = useQuery<SentFollowUp[] | null>({ queryKey: [FOLLOW_UP_ANALYTICS_KEY], refetchInterval: THIRTY_SECONDS });
  if (sent.isLoading) return <p className="text-slate-600">Loading follow-ups...</p>;
  const followUps = sent.data ?? [];
  return (
    <Card title="Follow-ups">
      {followUps.length === 0 ? (
        <p className="text-slate-600">No follow-up emails sent yet. Follow-ups of a sequence appear here once they go out.</p>
      ) : (
        <div className="max-h-[400px] overflow-auto">
          <table className="w-full text-left text-sm" aria-label="Sent follow-ups">
            <thead className="sticky top-0 bg-white">
              <tr className="border-b border-slate-200">
                <th className="p-2">Recipient</th>
                <th className="p-2">Follow-up</th>
                <th className="p-2">Subject</th>
                <th className="p-2">Sent</th>
                <th className="p-2">Opened</th>
                <th className="p-2">Clicked</th>
              </tr>
            </thead>
            <tbody>
              {followUps.map((followUp) => (
                <tr key={followUp.id} className="border-b border-slate-200">
                  <td className="p-2">{followUp.recipientEmail}</td>
                  <td className="p-2">#{followUp.sequenceNumber}</td>
                  <td className="p-2">
                    {followUp.followUpSubject}
                    {followUp.originalSubject ? <span className="block text-xs text-slate-500">Answers: {followUp.originalSubject}</span> : null}
                  </td>
                  <td className="p-2">{formatDateTime(followUp.sentAt)}</td>
                  <td className="p-2">{yesNo(followUp.opened)}</td>
                  <td className="p-2">{yesNo(followUp.clicked)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
