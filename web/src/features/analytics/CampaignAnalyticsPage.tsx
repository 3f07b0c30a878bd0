/** /campaign-analytics/{id} (B §2.10): header, five tiles, the table of every email with its dialog and Mark Opened,
 * daily charts, the empty and not-found states. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Dialog } from "../../components/ui/dialog";
import { Spinner } from "../../components/ui/spinner";
import { Badge } from "../../components/ui/badge";
import { Tile } from "../../components/ui/tile";
import { count, formatDate, formatDateTime, percentText } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { apiRequest } from "@outreach/client/request";
import type { SentEmail } from "@outreach/client/api/types";
import {
  PAGE_SIZE,
  bouncedText,
  campaignDaysKey,
  canMarkOpened,
  detailsKey,
  emailCount,
  notSentNote,
  yesNo,
  type CampaignDetails,
  type CampaignEmail,
} from "./api";
import { CampaignHeader, NotFound } from "./CampaignHeader";
import { DailyCharts, MessageBody } from "./shared";
import { usePageTitle } from "../../lib/title";
import { VariantsCard } from "./VariantsCard";

export function CampaignAnalyticsPage() {
  usePageTitle("Campaign Analytics");
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<CampaignEmail | null>(null);
  const details = useQuery<CampaignDetails | null>({ queryKey: [detailsKey(id, offset)] });
  if (details.isLoading) return <Spinner label="Loading campaign..." />;
  if (details.isError || !details.data) {
    return (
      <NotFound title="Campaign Not Found" text="This campaign does not exist or you do not have permission to view it.">
        <Button onClick={() => navigate("/dashboard?tab=your-campaigns")}>Back to Campaigns</Button>
      </NotFound>
    );
  }
  const { campaign, summary, contacts, contactsTotal } = details.data;
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
      <Link to="/dashboard?tab=your-campaigns" className="text-sm text-brand underline">
        ← Back to Campaigns
      </Link>
      <CampaignHeader campaign={campaign} created />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
        <Tile label="Total Emails" value={summary.totalEmails} />
        <Tile label="Emails Sent" value={summary.totalSent} detail={`${summary.failed} failed`} />
        {campaign.opensTracked ? (
          <Tile label="Opened" value={percentText(summary.openRate)} detail={emailCount(summary.opened)} />
        ) : (
          <Tile label="Opened" value="not tracked" detail="No open pixel in this campaign's emails" />
        )}
        <Tile label="Clicked" value={percentText(summary.clickRate)} detail={emailCount(summary.clicked)} />
        <Tile label="Replied" value={percentText(summary.replyRate)} detail={summary.meetingsBooked > 0 ? `${emailCount(summary.replied)} · ${count(summary.meetingsBooked, "meeting booked", "meetings booked")}` : emailCount(summary.replied)} />
      </div>
      <VariantsCard campaignId={id} />
      <Card title="Activity, last 30 days">
        <DailyCharts path={campaignDaysKey(id)} />
      </Card>
      <Card title="Emails">
        {contacts.length === 0 ? (
          <div className="py-8 text-center">
            <h3 className="font-semibold">No Emails Found</h3>
            <p className="text-slate-600">This campaign has not queued any emails yet.</p>
          </div>
        ) : (
          <>
            <div className="max-h-[400px] overflow-auto">
              <table className="w-full text-left text-sm">
                <thead className="sticky top-0 bg-white">
                  <tr className="border-b border-slate-200">
                    <th className="p-2">#</th>
                    <th className="p-2">Recipient</th>
                    <th className="p-2">Status</th>
                    <th className="p-2">Sent</th>
                    <th className="p-2">Opened</th>
                    <th className="p-2">Clicked</th>
                    <th className="p-2">Bounced</th>
                    <th className="p-2">Spam report</th>
                    <th className="p-2">Replied</th>
                  </tr>
                </thead>
                <tbody>
                  {contacts.map((email, index) => (
                    <tr key={email.id} className="cursor-pointer border-b border-slate-200 hover:bg-slate-50" onClick={() => setOpen(email)}>
                      <td className="p-2">{offset + index + 1}</td>
                      <td className="p-2">{email.toEmail}</td>
                      <td className="p-2">
                        <Badge value={email.status} />
                      </td>
                      <td className="p-2">{formatDateTime(email.sentAt)}</td>
                      <td className="p-2">{formatDate(email.openedAt)}</td>
                      <td className="p-2">{yesNo(email.clicked)}</td>
                      <td className="p-2">{yesNo(email.bounced)}</td>
                      <td className="p-2">{formatDate(email.spamReportedAt)}</td>
                      <td className="p-2">{yesNo(email.replied)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {contactsTotal > PAGE_SIZE ? (
              <div className="mt-3 flex items-center gap-3 text-sm">
                <Button variant="outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                  Previous
                </Button>
                <span>
                  {offset + 1}–{Math.min(offset + PAGE_SIZE, contactsTotal)} of {contactsTotal}
                </span>
                <Button variant="outline" disabled={offset + PAGE_SIZE >= contactsTotal} onClick={() => setOffset(offset + PAGE_SIZE)}>
                  Next
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Card>
      {open ? <EmailDialog email={open} onClose={() => setOpen(null)} /> : null}
    </main>
  );
}

/** The email dialog: dates, why it was not sent or how it bounced, subject, body (fetched with the message) and
 * flags; Mark Opened when it applies. */
function EmailDialog({ email, onClose }: { email: CampaignEmail; onClose: () => void }) {
  const full = useQuery<SentEmail | null>({ queryKey: [`/api/emails/${email.id}`] });
  const markOpened = useApiMutation({
    mutationFn: () => apiRequest("POST", `/api/emails/${email.id}/mark-opened`),
    onSuccess: () => window.location.reload(),
    // B §8: a failed mark is only logged.
    onError: (failure) => console.error("Mark opened failed", failure),
  });
  return (
    <Dialog title={`Email to ${email.toEmail}`} onClose={onClose} wide>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-slate-500">Recipient</dt>
        <dd>{email.toEmail}</dd>
        <dt className="text-slate-500">Status</dt>
        <dd>
          <Badge value={email.status} />
        </dd>
        <dt className="text-slate-500">Sent</dt>
        <dd>{email.sentAt ? formatDateTime(email.sentAt) : notSentNote(email)}</dd>
        {email.bounced ? (
          <>
            <dt className="text-slate-500">Bounced</dt>
            <dd>{bouncedText(email)}</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Opened</dt>
        <dd>{formatDateTime(email.openedAt)}</dd>
        <dt className="text-slate-500">Subject</dt>
        <dd>{email.subject}</dd>
      </dl>
      <div className="my-3 flex flex-wrap gap-2 text-xs" aria-label="Flags">
        <span>Opened: {yesNo(email.opened)}</span>
        <span>Clicked: {yesNo(email.clicked)}</span>
        <span>Replied: {yesNo(email.replied)}</span>
        <span>Bounced: {yesNo(email.bounced)}</span>
      </div>
      {full.data ? <MessageBody body={full.data.body} /> : <p className="text-sm text-slate-600">Loading message...</p>}
      {full.data?.events.some((event) => event.manual) ? <p className="mt-2 text-xs text-slate-500">Marked opened by hand.</p> : null}
      {canMarkOpened(email) ? (
        <Button className="mt-3" disabled={markOpened.isPending} onClick={() => markOpened.mutate()}>
          Mark Opened
        </Button>
      ) : null}
    </Dialog>
  );
}
