/** One conversation of the inbox (issue 34): every message both ways in order, each marked by kind, the AI's
 * reading of each reply, a waiting automatic answer to edit, approve or discard, the label, and the reply box with
 * an AI draft to start from. Opening it marks it read; on a phone it scrolls into view. */
import { useEffect, useRef, useState, type RefObject } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { SelectField, TextArea, TextField } from "../../components/ui/field";
import { HtmlFrame } from "../../components/ui/html-frame";
import { formatDateTime, percentText, textToHtml } from "../../lib/format";
import type { AnswerDraft, InboxThread, QueuedAnswer, ThreadMessage, ThreadView } from "@outreach/client/api/types";
import { requestJson } from "@outreach/client/request";
import { useApiMutation } from "@outreach/client/mutation";
import { ACTION_LABELS, ESCALATION_LABELS, LANGUAGE_NAMES, htmlToText, useAnswerDecision } from "../../lib/replies";
import { LABELS, THREADS_PATH, messageName } from "./rules";

/** Tailwind's md: from this width the conversation shows beside the list. */
const BESIDE_THE_LIST = "(min-width: 48rem)";

export function Conversation({ id, replyRef, onBack }: { id: number; replyRef: RefObject<HTMLTextAreaElement | null>; onBack: () => void }) {
  const path = `${THREADS_PATH}/${id}`;
  const view = useQuery<ThreadView>({ queryKey: [path], queryFn: () => requestJson<ThreadView>("GET", path), staleTime: 0 });
  const queryClient = useQueryClient();
  const opened = view.isSuccess;
  const article = useRef<HTMLElement>(null);
  // Opening marked it read: the list shows so once it is open.
  useEffect(() => {
    if (opened) void queryClient.invalidateQueries({ queryKey: [THREADS_PATH] });
  }, [opened, id, queryClient]);
  // On a phone it starts below the header and the tabs: it comes into view once loaded (issue 83.15).
  useEffect(() => {
    if (opened && !window.matchMedia(BESIDE_THE_LIST).matches) article.current?.scrollIntoView({ block: "start" });
  }, [opened, id]);
  if (view.isLoading) return <p className="text-slate-600">Loading the conversation...</p>;
  if (view.isError || !view.data) return <p className="text-red-700">The conversation could not be loaded.</p>;
  const { thread, messages } = view.data;
  return (
    <article ref={article} className="flex scroll-mt-2 flex-col gap-3" aria-label={`Conversation with ${thread.prospect}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Button variant="outline" className="mb-2 md:hidden" onClick={onBack}>
            Back to the list
          </Button>
          <h3 className="truncate font-semibold">{thread.businessName ?? thread.prospect}</h3>
          <p className="truncate text-sm text-slate-600">
            {thread.prospect}
            {thread.campaignName ? ` · ${thread.campaignName}` : ""}
          </p>
        </div>
        <ThreadActions thread={thread} path={path} />
      </div>
      <ol className="flex flex-col gap-3" aria-label="Messages">
        {messages.map((message) => (
          <MessageItem key={`${message.direction}-${message.id}`} message={message} path={path} />
        ))}
      </ol>
      {/* Keyed by the conversation: another one starts with an empty box. */}
      <ReplyBox key={thread.id} thread={thread} path={path} replyRef={replyRef} />
    </article>
  );
}

function ThreadActions({ thread, path }: { thread: InboxThread; path: string }) {
  const changing = useApiMutation({
    mutationFn: (change: { label?: string | null; done?: boolean; read?: boolean }) => requestJson<InboxThread>("PATCH", path, change),
    success: { title: "Conversation updated" },
    failure: { title: "The conversation could not be changed", description: "Please try again" },
    invalidates: [[THREADS_PATH], [path]],
  });
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SelectField
        label="Label"
        value={thread.label ?? ""}
        disabled={changing.isPending}
        onChange={(event) => changing.mutate({ label: event.target.value || null })}
        options={[{ value: "", label: "No label" }, ...LABELS]}
      />
      <Button variant="outline" disabled={changing.isPending} onClick={() => changing.mutate({ done: !thread.done })}>
        {thread.done ? "Move back to inbox" : "Mark done"}
      </Button>
      <Button variant="outline" disabled={changing.isPending} onClick={() => changing.mutate({ read: false })}>
        Mark unread
      </Button>
    </div>
  );
}

function MessageItem({ message, path }: { message: ThreadMessage; path: string }) {
  const sent = message.direction === "sent";
  return (
    <li className={`rounded-md border p-3 ${sent ? "border-slate-200 bg-white sm:ml-8" : "border-blue-200 bg-blue-50 sm:mr-8"}`} data-testid="thread-message" data-kind={message.kind}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-semibold">
          {messageName(message)}
          <span className="font-normal text-slate-600"> · {sent ? `to ${message.to}` : `from ${message.from ?? "unknown"}`}</span>
        </p>
        <span className="text-xs text-slate-500">{formatDateTime(message.at)}</span>
      </div>
      <p className="text-sm text-slate-700">{message.subject}</p>
      {sent && message.status && message.status !== "sent" ? (
        <p className="text-xs text-slate-600">
          <Badge value={message.status} /> {message.error ?? ""}
        </p>
      ) : null}
      {message.reading ? (
        <div className="mt-1 flex flex-wrap items-center gap-1" aria-label="The AI's reading">
          <Badge value={message.reading.sentiment} />
          <Badge value={ACTION_LABELS[message.reading.action] ?? message.reading.action} />
          {message.confidence !== null && message.confidence !== undefined ? <span className="text-xs text-slate-600">{percentText(message.confidence * 100)} sure</span> : null}
          {message.language ? <span className="text-xs text-slate-600">· {LANGUAGE_NAMES[message.language] ?? message.language}</span> : null}
          {message.reading.escalations.map((topic) => (
            <span key={topic} className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
              {ESCALATION_LABELS[topic] ?? topic}
            </span>
          ))}
        </div>
      ) : null}
      {sent ? (
        <details className="mt-1 text-sm">
          <summary className="cursor-pointer text-slate-600">The email</summary>
          <HtmlFrame html={message.body} title={messageName(message)} className="mt-1 h-48" />
        </details>
      ) : (
        <pre className="mt-2 whitespace-pre-wrap break-words font-sans text-sm text-slate-900">{message.body}</pre>
      )}
      {message.answer?.status === "awaiting_approval" ? <WaitingAnswer answer={message.answer} path={path} /> : null}
    </li>
  );
}

/** An automatic answer waiting for the user: edited as plain paragraphs, approved (sent now) or discarded. */
function WaitingAnswer({ answer, path }: { answer: NonNullable<ThreadMessage["answer"]>; path: string }) {
  const [subject, setSubject] = useState(answer.subject);
  const [text, setText] = useState(() => htmlToText(answer.body));
  const { approving, discarding, busy } = useAnswerDecision(answer.id, { subject, text }, [[THREADS_PATH], [path]], "Sending it in this conversation");
  return (
    <div className="mt-3 rounded-md border border-amber-200 bg-white p-3" data-testid="waiting-answer">
      <p className="text-sm font-semibold">Answer drafted by the AI, waiting for your approval</p>
      {answer.why ? <p className="text-sm text-amber-800">Waiting because: {answer.why}</p> : null}
      <div className="mt-2 space-y-2">
        <TextField label="Subject" value={subject} onChange={(event) => setSubject(event.target.value)} />
        <TextArea label="Drafted answer" rows={6} value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <div className="mt-2 flex gap-2">
        <Button onClick={() => approving.mutate()} disabled={busy || subject.trim() === "" || text.trim() === ""}>
          Approve and Send
        </Button>
        <Button variant="outline" onClick={() => discarding.mutate()} disabled={busy}>
          Discard
        </Button>
      </div>
    </div>
  );
}

function ReplyBox({ thread, path, replyRef }: { thread: InboxThread; path: string; replyRef: RefObject<HTMLTextAreaElement | null> }) {
  const [text, setText] = useState("");
  const drafting = useApiMutation({
    mutationFn: () => requestJson<AnswerDraft>("POST", `${path}/draft`),
    success: (draft) => ({ title: "Draft written", description: draft.writer === "offline" ? "By the offline writer: edit it before sending" : `By ${draft.writer}: edit it before sending` }),
    failure: { title: "No draft could be written", description: "Please write the answer yourself" },
    onSuccess: (draft) => setText(htmlToText(draft.body)),
  });
  const sending = useApiMutation({
    mutationFn: () => requestJson<QueuedAnswer>("POST", `${path}/reply`, { body: textToHtml(text) }),
    success: { title: "Answer sent", description: `It goes to ${thread.prospect} in this conversation` },
    failure: { title: "The answer was not sent", description: "Please try again" },
    invalidates: [[THREADS_PATH], [path]],
    onSuccess: () => setText(""),
  });
  return (
    <form
      className="rounded-md border border-slate-200 p-3"
      aria-label="Answer"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) sending.mutate();
      }}
    >
      <TextArea ref={replyRef} label={`Answer ${thread.prospect}`} rows={6} value={text} onChange={(event) => setText(event.target.value)} />
      <p className="mt-1 text-xs text-slate-500">Sent through this conversation's sender, in the same thread. It counts toward your monthly limit and the sender's daily cap.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button type="submit" disabled={sending.isPending || text.trim() === ""}>
          {sending.isPending ? "Sending..." : "Send answer"}
        </Button>
        <Button type="button" variant="outline" disabled={drafting.isPending} onClick={() => drafting.mutate()}>
          {drafting.isPending ? "Writing..." : "Draft with AI"}
        </Button>
      </div>
    </form>
  );
}
