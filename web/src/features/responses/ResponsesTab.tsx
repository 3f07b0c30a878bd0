/** The Email responses tab (B §2.9, issue 20): stat cards, sentiment bars, the AI's actions, the approval queue of
 * drafted answers (edit, approve, discard), the latest replies with what the AI read in them and the answer sent or
 * waiting, and the test dialog that reads and drafts without sending. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Dialog } from "../../components/ui/dialog";
import { TextArea, TextField } from "../../components/ui/field";
import { HtmlFrame } from "../../components/ui/html-frame";
import { Tile } from "../../components/ui/tile";
import { useAuth } from "../../lib/auth";
import type { EmailResponse, ProcessedResponse, ResponseAnalytics } from "@outreach/client/api/types";
import { count, formatDateTime, percentText } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { ACTION_LABELS, ESCALATION_LABELS, LANGUAGE_NAMES, htmlToText, useAnswerDecision } from "../../lib/replies";
import { sentimentShares, testFormError } from "./rules";

const ANALYTICS_KEY = "/api/email-responses/analytics";
const THIRTY_SECONDS = 30_000;

export function ResponsesTab() {
  const { user } = useAuth();
  const [testing, setTesting] = useState(false);
  // Fetched only once the user is known (B §6).
  const analytics = useQuery<ResponseAnalytics | null>({ queryKey: [ANALYTICS_KEY], enabled: Boolean(user), refetchInterval: THIRTY_SECONDS });
  const data = analytics.data;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Email responses</h2>
        <Button variant="outline" onClick={() => setTesting(true)}>
          Test a Response
        </Button>
      </div>
      {analytics.isLoading ? <p className="text-slate-600">Loading responses...</p> : null}
      {analytics.isError ? <p className="text-red-700">Responses could not be loaded.</p> : null}
      {data ? (
        <>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Tile label="Total Responses" value={data.totalResponses} />
            <Tile label="Response Rate" value={percentText(data.responseRate)} detail="of campaign emails sent" />
            <Tile label="Positive" value={percentText(data.positiveShare)} detail="of replies read" />
            <Tile label="Pending Approvals" value={data.pendingApprovals} detail={`${count(data.answersSent, "answer", "answers")} sent`} />
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <SentimentBars breakdown={data.sentimentBreakdown} />
            <Card title="AI actions">
              <ul className="space-y-1 text-sm" aria-label="AI actions">
                {Object.entries(data.actionBreakdown).map(([action, count]) => (
                  <li key={action} className="flex justify-between">
                    <span>{ACTION_LABELS[action] ?? action}</span>
                    <span className="font-semibold">{count}</span>
                  </li>
                ))}
              </ul>
            </Card>
          </div>
          <ApprovalQueue responses={data.recentResponses.filter((response) => response.answer?.status === "awaiting_approval")} />
          <RecentResponses responses={data.recentResponses} />
        </>
      ) : null}
      {testing ? <TestDialog onClose={() => setTesting(false)} /> : null}
    </div>
  );
}

function SentimentBars({ breakdown }: { breakdown: ResponseAnalytics["sentimentBreakdown"] }) {
  const shares = sentimentShares(breakdown);
  const rows = [
    { name: "Positive", count: breakdown.positive, share: shares.positive, tone: "bg-green-500" },
    { name: "Neutral", count: breakdown.neutral, share: shares.neutral, tone: "bg-slate-400" },
    { name: "Negative", count: breakdown.negative, share: shares.negative, tone: "bg-red-500" },
  ];
  return (
    <Card title="Sentiment">
      <div className="space-y-2" aria-label="Sentiment">
        {rows.map((row) => (
          <div key={row.name} data-testid={`sentiment-${row.name}`}>
            <div className="flex justify-between text-sm">
              <span>{row.name}</span>
              <span>
                {row.count} ({percentText(row.share)})
              </span>
            </div>
            <div className="h-2 rounded bg-slate-100">
              <div className={`h-2 rounded ${row.tone}`} style={{ width: `${row.share}%` }} />
            </div>
          </div>
        ))}
      </div>
    </Card>
  );
}

function ReadingBadges({ response }: { response: EmailResponse }) {
  if (!response.sentiment) return <span className="text-xs text-slate-500">Being read by the AI...</span>;
  return (
    <div className="flex flex-wrap items-center gap-1">
      <Badge value={response.sentiment} />
      {response.action ? <Badge value={ACTION_LABELS[response.action] ?? response.action} /> : null}
      {response.confidence !== null && response.confidence !== undefined ? <span className="text-xs text-slate-600">{percentText(response.confidence * 100)} sure</span> : null}
      {response.language ? <span className="text-xs text-slate-600">· {LANGUAGE_NAMES[response.language] ?? response.language}</span> : null}
      {response.escalations.map((topic) => (
        <span key={topic} className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
          {ESCALATION_LABELS[topic] ?? topic}
        </span>
      ))}
    </div>
  );
}

/** Drafts waiting for the user: edited as plain paragraphs, approved (sent now) or discarded. */
function ApprovalQueue({ responses }: { responses: EmailResponse[] }) {
  return (
    <Card title={`Approval queue (${responses.length})`}>
      {responses.length === 0 ? (
        <p className="text-slate-600">No answers waiting for your approval.</p>
      ) : (
        <ul className="flex flex-col gap-4" aria-label="Answers waiting for approval">
          {responses.map((response) => (
            <DraftItem key={response.id} response={response} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function DraftItem({ response }: { response: EmailResponse }) {
  const answer = response.answer!;
  const [subject, setSubject] = useState(answer.subject);
  const [text, setText] = useState(() => htmlToText(answer.body));
  const { approving, discarding, busy } = useAnswerDecision(answer.id, { subject, text }, [[ANALYTICS_KEY]], `Sending to ${response.fromEmail ?? "the prospect"}`);
  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="draft-answer">
      <p className="text-sm">
        <strong>{response.fromEmail}</strong> wrote: “{response.summary || response.subject}”
      </p>
      <ReadingBadges response={response} />
      {answer.why ? <p className="mt-1 text-sm text-amber-800">Waiting because: {answer.why}</p> : null}
      <div className="mt-2 space-y-2">
        <TextField label="Subject" value={subject} onChange={(event) => setSubject(event.target.value)} />
        <TextArea label="Answer" rows={7} value={text} onChange={(event) => setText(event.target.value)} />
        <p className="text-xs text-slate-500">Written by {answer.writer === "offline" ? "the offline writer" : answer.writer}. Approving sends it now, in the same thread.</p>
      </div>
      <div className="mt-2 flex gap-2">
        <Button onClick={() => approving.mutate()} disabled={busy || subject.trim() === "" || text.trim() === ""}>
          Approve and Send
        </Button>
        <Button variant="outline" onClick={() => discarding.mutate()} disabled={busy}>
          Discard
        </Button>
      </div>
    </li>
  );
}

function RecentResponses({ responses }: { responses: EmailResponse[] }) {
  return (
    <Card title="Recent responses">
      {responses.length === 0 ? (
        <p className="text-slate-600">No responses yet. Replies to your campaigns appear here once they arrive, with what the AI read in them.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Recent responses">
          {responses.map((response) => (
            <li key={response.id} className="rounded-md border border-slate-200 p-3" data-testid="email-response">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold">{response.subject}</p>
                <span className="text-xs text-slate-500">{formatDateTime(response.responseTimestamp)}</span>
              </div>
              <p className="text-sm text-slate-600">From {response.fromEmail ?? "unknown"}{response.answeredSubject ? ` · answers “${response.answeredSubject}”` : ""}</p>
              <ReadingBadges response={response} />
              {response.summary ? <p className="mt-1 text-sm">{response.summary}</p> : null}
              {response.note ? <p className="mt-1 text-xs text-amber-800">{response.note}</p> : null}
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer text-slate-600">Their reply</summary>
                <pre className="mt-1 whitespace-pre-wrap font-sans text-slate-800">{response.body}</pre>
              </details>
              {response.answer ? <AnswerLine answer={response.answer} /> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function AnswerLine({ answer }: { answer: NonNullable<EmailResponse["answer"]> }) {
  const state: Record<string, string> = {
    awaiting_approval: "Draft waiting for your approval",
    discarded: "Draft discarded",
    queued: answer.automatic ? "Answer scheduled by the AI" : "Answer queued",
    sending: "Answer being sent",
    sent: answer.automatic ? "Answered by the AI" : "Answered (approved by you)",
    failed: "The answer could not be sent",
    skipped: "The answer was not sent",
  };
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-slate-700">
        {state[answer.status] ?? answer.status}
        {answer.sentAt ? ` · ${formatDateTime(answer.sentAt)}` : ""}
      </summary>
      <div className="mt-1">
        <p className="font-medium">{answer.subject}</p>
        <HtmlFrame title={`Answer: ${answer.subject}`} html={answer.body} className="h-32" />
      </div>
    </details>
  );
}

/** B §2.9 test dialog: a reply typed by the user, read and answered as for their latest campaign; nothing is sent. */
function TestDialog({ onClose }: { onClose: () => void }) {
  const [form, setForm] = useState({ from: "", subject: "", body: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<ProcessedResponse | null>(null);
  const processing = useApiMutation({
    mutationFn: () => requestJson<ProcessedResponse>("POST", "/api/email-responses/process", form),
    success: { title: "Test response processed" },
    failure: { title: "Processing failed" },
    onSuccess: setResult,
  });
  const submit = () => {
    const error = testFormError(form);
    setProblem(error);
    if (!error) processing.mutate();
  };
  const change = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  return (
    <Dialog title="Test a response" onClose={onClose} wide>
      <div className="space-y-3">
        <TextField label="From" type="email" value={form.from} onChange={(event) => change({ from: event.target.value })} />
        <TextField label="Subject" value={form.subject} onChange={(event) => change({ subject: event.target.value })} />
        <TextArea label="Response body" rows={5} value={form.body} onChange={(event) => change({ body: event.target.value })} />
        {problem ? (
          <p role="alert" className="text-sm text-red-600">
            {problem}
          </p>
        ) : null}
        <Button onClick={submit} disabled={processing.isPending}>
          {processing.isPending ? "Processing..." : "Process Response"}
        </Button>
        <p className="text-xs text-slate-500">Nothing is stored or sent: this shows how the AI would read the reply and answer it for your latest campaign.</p>
        {result ? (
          <div className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="test-result">
            <ReadingBadges response={{ ...result, id: 0, fromEmail: form.from, subject: form.subject, body: form.body, responseTimestamp: new Date().toISOString(), escalations: result.escalations }} />
            <p className="text-sm">{result.summary}</p>
            {result.note ? <p className="text-xs text-amber-800">{result.note}</p> : null}
            <p className="text-sm font-medium">{result.decision}</p>
            {result.draft ? (
              <div>
                <p className="text-sm">Draft: {result.draft.subject}</p>
                <HtmlFrame title="Drafted answer" html={result.draft.body} className="h-40" />
              </div>
            ) : null}
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}
