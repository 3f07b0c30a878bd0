/** /campaign-details/{id} (B §2.11): refreshes every 30 s; header, eight tiles, the campaign's senders (issue 79), and
 * each contact with their engagement badge, business details, times, bounce reason and clicked links. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { Badge, InterestBadge } from "../../components/ui/badge";
import { Tile } from "../../components/ui/tile";
import { count, formatDateTime, percentText } from "../../lib/format";
import { SenderProgressList } from "../../components/sender-progress";
import type { CampaignProgress } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { THIRTY_SECONDS, bouncedText, detailsKey, notSentNote, type CampaignDetails, type CampaignEmail } from "./api";
import { CampaignHeader, NotFound } from "./CampaignHeader";
import { usePageTitle } from "../../lib/title";

export function CampaignDetailsPage() {
  usePageTitle("Campaign Details");
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const details = useQuery<CampaignDetails | null>({ queryKey: [detailsKey(id)], refetchInterval: THIRTY_SECONDS });
  // Its senders, sent and waiting on each, with their caps and states (issue 79).
  const progress = useQuery<CampaignProgress | null>({ queryKey: [`/api/campaigns/${id}/progress`], refetchInterval: THIRTY_SECONDS });
  if (details.isLoading) return <Spinner label="Loading campaign..." />;
  if (details.isError || !details.data) {
    return (
      <NotFound title="Campaign not found" text="This campaign does not exist or you do not have permission to view it.">
        <Button onClick={() => navigate(-1)}>Go Back</Button>
      </NotFound>
    );
  }
  const { campaign, summary, contacts, contactsTotal } = details.data;
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
      <Button variant="outline" className="self-start" onClick={() => navigate(-1)}>
        Go Back
      </Button>
      <CampaignHeader campaign={campaign} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile label="Sent" value={summary.totalSent} />
        <Tile label="Delivered" value={summary.delivered} detail={deliveryDetail(summary.delivered, summary.deliveryRate)} />
        <Tile label="Opened" value={campaign.opensTracked ? summary.opened : "not tracked"} detail={campaign.opensTracked ? `${percentText(summary.openRate)} open rate` : undefined} />
        <Tile label="Clicked" value={summary.clicked} detail={`${percentText(summary.clickRate)} click rate`} />
        <Tile label="Bounced" value={summary.bounced} detail={`${percentText(summary.bounceRate)} bounce rate`} />
        <Tile label="Spam" value={summary.spamReported} />
        <Tile label="Total Opens" value={summary.totalOpens} detail={machineOpensDetail(summary.machineOpens)} />
        <Tile label="Total Clicks" value={summary.totalClicks} />
      </div>
      {progress.data && progress.data.progress.uncertain > 0 ? <InDoubt campaignId={campaign.id} count={progress.data.progress.uncertain} /> : null}
      {progress.data && progress.data.senders.length > 0 ? (
        <Card title="Senders">
          <SenderProgressList senders={progress.data.senders} />
        </Card>
      ) : null}
      <Card title={`Contacts (${contactsTotal})`}>
        {contacts.length === 0 ? (
          <p className="py-6 text-center text-slate-600">No emails found for this campaign</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Contacts">
            {contacts.map((contact) => (
              <ContactRow key={contact.id} contact={contact} />
            ))}
          </ul>
        )}
        {contactsTotal > contacts.length ? (
          <p className="mt-3 text-sm text-slate-600">
            Showing the first {contacts.length} of {contactsTotal}; every email is on the campaign's analytics page.
          </p>
        ) : null}
      </Card>
    </main>
  );
}

/** Deliveries are reported only by senders that send delivery events (SendGrid); without any, a rate of 0% would
 * say every email went missing. */
export function deliveryDetail(delivered: number, rate: number): string {
  return delivered > 0 ? `${percentText(rate)} delivery rate` : "Not reported: only SendGrid senders report deliveries";
}

/** Opens by mail scanners and privacy proxies, left out of the open figures. */
export function machineOpensDetail(machineOpens: number): string | undefined {
  return machineOpens > 0 ? `${count(machineOpens, "machine open", "machine opens")} not counted` : undefined;
}

function ContactRow({ contact }: { contact: CampaignEmail }) {
  return (
    <li className="rounded border border-slate-200 p-3" data-testid="campaign-contact">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{contact.businessName ?? contact.toEmail}</span>
        <Badge value={contact.engagement} /> <InterestBadge interest={contact.interest} />
      </div>
      <p className="text-sm text-slate-600">
        {contact.toEmail || "No email address"}
        {contact.businessAddress ? ` · ${contact.businessAddress}` : ""}
        {contact.businessPhone ? ` · ${contact.businessPhone}` : ""}
        {contact.businessWebsite ? (
          <>
            {" · "}
            <a href={contact.businessWebsite} target="_blank" rel="noreferrer noopener" className="text-brand underline">
              Website
            </a>
          </>
        ) : null}
      </p>
      {contact.sentAt ? <SentTimes contact={contact} /> : <p className="mt-2 text-xs text-slate-600">{notSentNote(contact)}</p>}
      {contact.step === 0 && contact.sentAt ? <FollowUpState contact={contact} /> : null}
      {contact.clickedUrls.length > 0 ? (
        <ul className="mt-2 list-disc pl-5 text-xs" aria-label="Clicked links">
          {contact.clickedUrls.map((url) => (
            <li key={url}>{url}</li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** Emails in doubt (their worker stopped while handing them to the server) and Send Again, after a warning that
 * some may have arrived (issue 80). */
function InDoubt({ campaignId, count }: { campaignId: number; count: number }) {
  const [asking, setAsking] = useState(false);
  const emails = count === 1 ? "1 email" : `${count} emails`;
  const sending = useApiMutation({
    mutationFn: () => requestJson("POST", `/api/campaigns/${campaignId}/send-uncertain-again`),
    success: { title: "Sending again", description: `${emails} went back to the queue` },
    failure: { title: "Error", description: "The emails could not be queued again. Please try again." },
    invalidates: (query) => String(query.queryKey[0]).startsWith("/api/campaigns"),
    onSuccess: () => setAsking(false),
  });
  return (
    <Card title="In doubt">
      <p className="text-sm text-slate-600">
        {emails} may have arrived: the worker sending {count === 1 ? "it" : "them"} stopped while handing {count === 1 ? "it" : "them"} to the
        server. {count === 1 ? "It is" : "They are"} not sent again unless you ask.
      </p>
      <Button variant="outline" className="mt-2" onClick={() => setAsking(true)}>
        Send Again
      </Button>
      {asking ? (
        <ConfirmDialog
          title="Send the emails in doubt again"
          message={`Some of these ${emails} may have arrived already: their recipients would get a second copy. Send them again?`}
          confirmLabel="Send Again"
          busy={sending.isPending}
          onConfirm={() => sending.mutate()}
          onCancel={() => setAsking(false)}
        />
      ) : null}
    </Card>
  );
}

/** Whether the prospect's follow-ups still go out, and Stop Follow-ups (after a confirmation) while they do. */
function FollowUpState({ contact }: { contact: CampaignEmail }) {
  const [asking, setAsking] = useState(false);
  const stopping = useApiMutation({
    mutationFn: () => requestJson("POST", `/api/emails/${contact.id}/stop-follow-ups`),
    success: { title: "Follow-ups stopped", description: contact.toEmail },
    failure: { title: "Error", description: "The follow-ups could not be stopped. Please try again." },
    invalidates: (query) => String(query.queryKey[0]).startsWith("/api/campaigns") || String(query.queryKey[0]).startsWith("/api/followup-cronjob"),
    onSuccess: () => setAsking(false),
  });
  if (contact.followUpsStopped) {
    return <p className="mt-2 text-xs text-slate-600">Follow-ups stopped: {contact.followUpsStopped}</p>;
  }
  return (
    <div className="mt-2">
      <Button variant="ghost" onClick={() => setAsking(true)}>
        Stop Follow-ups
      </Button>
      {asking ? (
        <ConfirmDialog
          title="Stop follow-ups"
          message={`No more follow-ups of this campaign go to ${contact.businessName ?? contact.toEmail}.`}
          confirmLabel="Stop Follow-ups"
          busy={stopping.isPending}
          onConfirm={() => stopping.mutate()}
          onCancel={() => setAsking(false)}
        />
      ) : null}
    </div>
  );
}

/** When a sent email was delivered, opened, clicked, answered, bounced or reported. */
function SentTimes({ contact }: { contact: CampaignEmail }) {
  return (
    <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs md:grid-cols-3">
      <div>
        <dt className="inline text-slate-500">Sent: </dt>
        <dd className="inline">{formatDateTime(contact.sentAt)}</dd>
      </div>
      <div>
        <dt className="inline text-slate-500">Delivered: </dt>
        <dd className="inline">{formatDateTime(contact.deliveredAt)}</dd>
      </div>
      <div>
        <dt className="inline text-slate-500">Opened: </dt>
        <dd className="inline">
          {contact.openCount} {contact.openCount === 1 ? "time" : "times"}
          {contact.lastOpenedAt ? `, last ${formatDateTime(contact.lastOpenedAt)}` : ""}
        </dd>
      </div>
      <div>
        <dt className="inline text-slate-500">Clicked: </dt>
        <dd className="inline">
          {contact.clickCount} {contact.clickCount === 1 ? "time" : "times"}
          {contact.firstClickedAt ? `, first ${formatDateTime(contact.firstClickedAt)}` : ""}
        </dd>
      </div>
      {contact.replied ? (
        <div>
          <dt className="inline text-slate-500">Replied: </dt>
          <dd className="inline">{formatDateTime(contact.repliedAt)}</dd>
        </div>
      ) : null}
      {contact.bounced ? (
        <div>
          <dt className="inline text-slate-500">Bounced: </dt>
          <dd className="inline">{bouncedText(contact)}</dd>
        </div>
      ) : null}
      {contact.spamReported ? (
        <div>
          <dt className="inline text-slate-500">Spam report: </dt>
          <dd className="inline">{formatDateTime(contact.spamReportedAt)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
