/** The Inbox tab (issue 34): every conversation with a prospect who answered, across campaigns and senders, the
 * latest reply first, with filters, a search, and the AI's reading; a conversation opens beside the list (on a
 * phone, in the place of the list and its filters). Keyboard: j/k move, Enter opens, r replies, e marks done, u marks unread. */
import { useEffect, useMemo, useRef, useState } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { SelectField, TextField } from "../../components/ui/field";
import { useAuth } from "../../lib/auth";
import { formatDateTime } from "../../lib/format";
import type { Campaign, EmailConfig, InboxThread, ThreadPage } from "@outreach/client/api/types";
import { requestJson } from "@outreach/client/request";
import { useApiMutation } from "@outreach/client/mutation";
import { ACTION_LABELS } from "../../lib/replies";
import { Conversation } from "./Conversation";
import { LABELS, NO_FILTERS, THREADS_PATH, VIEWS, keyAction, labelName, moved, threadsPath, type InboxFilters } from "./rules";

const THIRTY_SECONDS = 30_000;

export function InboxTab() {
  const { user } = useAuth();
  const [filters, setFilters] = useState<InboxFilters>(NO_FILTERS);
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState(-1);
  const [openId, setOpenId] = useState<number | null>(null);
  const replyRef = useRef<HTMLTextAreaElement>(null);
  const pages = useInfiniteQuery({
    queryKey: [THREADS_PATH, filters],
    queryFn: ({ pageParam }) => requestJson<ThreadPage>("GET", threadsPath(filters, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    enabled: Boolean(user),
    refetchInterval: THIRTY_SECONDS,
  });
  const campaigns = useQuery<Campaign[]>({ queryKey: ["/api/campaigns"], enabled: Boolean(user) });
  const senders = useQuery<EmailConfig[]>({ queryKey: ["/api/user/email-configs"], enabled: Boolean(user) });
  const threads = useMemo(() => pages.data?.pages.flatMap((page) => page.threads) ?? [], [pages.data]);
  const current = selected >= 0 ? threads[selected] : undefined;

  // The search applies a moment after the user stops typing.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((before) => (before.q === search ? before : { ...before, q: search })), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const marking = useApiMutation({
    mutationFn: ({ id, change }: { id: number; change: { read?: boolean; done?: boolean } }) => requestJson<InboxThread>("PATCH", `${THREADS_PATH}/${id}`, change),
    success: (_, { change }) => ({ title: change.done ? "Marked done" : "Marked unread" }),
    failure: { title: "The conversation could not be changed", description: "Please try again" },
    invalidates: [[THREADS_PATH]],
  });

  const open = (id: number) => setOpenId(id);

  const keyboard = useRef<(event: KeyboardEvent) => void>(() => {});
  const onKey = (event: KeyboardEvent) => {
    const action = keyAction(event, event.target);
    if (!action) return;
    if (action === "next" || action === "previous") {
      event.preventDefault();
      setSelected((index) => moved(index, action, threads.length));
      return;
    }
    const thread = current ?? threads.find((item) => item.id === openId);
    if (!thread) return;
    event.preventDefault();
    if (action === "open") open(thread.id);
    else if (action === "reply") {
      if (openId !== thread.id) open(thread.id);
      // The reply box is there once the conversation shows.
      setTimeout(() => replyRef.current?.focus(), 0);
    } else if (action === "done") marking.mutate({ id: thread.id, change: { done: !thread.done } });
    else marking.mutate({ id: thread.id, change: { read: false } });
  };
  // The window's listener calls the latest handler (it sees this render's list and selection).
  useEffect(() => {
    keyboard.current = onKey;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keyboard.current(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const setFilter = (change: Partial<InboxFilters>) => {
    setFilters((before) => ({ ...before, ...change }));
    setSelected(-1);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Inbox</h2>
        <p className="text-xs text-slate-500">Keys: j/k move · Enter opens · r replies · e done · u unread</p>
      </div>
      {/* On a phone the open conversation takes the list's place, so the list's filters go too (issue 83.15). */}
      <div className={`${openId !== null ? "hidden md:grid" : "grid"} gap-2 sm:grid-cols-2 lg:grid-cols-5`} aria-label="Inbox filters">
        <SelectField label="Show" value={filters.view} onChange={(event) => setFilter({ view: event.target.value })} options={VIEWS.map((view) => ({ ...view }))} />
        <SelectField
          label="Campaign"
          value={filters.campaignId}
          onChange={(event) => setFilter({ campaignId: event.target.value })}
          options={[{ value: "", label: "All campaigns" }, ...(campaigns.data ?? []).map((campaign) => ({ value: String(campaign.id), label: campaign.name }))]}
        />
        <SelectField
          label="Sender"
          value={filters.senderId}
          onChange={(event) => setFilter({ senderId: event.target.value })}
          options={[{ value: "", label: "All senders" }, ...(senders.data ?? []).map((sender) => ({ value: String(sender.id), label: sender.emailAddress }))]}
        />
        <SelectField label="Label" value={filters.label} onChange={(event) => setFilter({ label: event.target.value })} options={[{ value: "", label: "Any label" }, ...LABELS]} />
        <TextField label="Search" type="search" placeholder="Prospect, business, subject or words" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-label="Conversations" className={openId !== null ? "hidden md:block" : ""}>
          {pages.isLoading ? <p className="text-slate-600">Loading conversations...</p> : null}
          {pages.isError ? <p className="text-red-700">Conversations could not be loaded.</p> : null}
          {pages.data && threads.length === 0 ? <p className="text-slate-600">No conversations here. When a prospect answers one of your campaigns, the conversation appears here.</p> : null}
          <ul className="flex flex-col gap-2">
            {threads.map((thread, index) => (
              <ThreadItem key={thread.id} thread={thread} selected={index === selected} open={thread.id === openId} onOpen={() => { setSelected(index); open(thread.id); }} />
            ))}
          </ul>
          {pages.hasNextPage ? (
            <Button variant="outline" className="mt-2 w-full" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
              {pages.isFetchingNextPage ? "Loading..." : "Load more"}
            </Button>
          ) : null}
        </section>
        <section aria-label="Conversation" className={openId === null ? "hidden md:block" : ""}>
          {openId === null ? (
            <p className="text-slate-600">Choose a conversation to read it and answer.</p>
          ) : (
            <Conversation id={openId} replyRef={replyRef} onBack={() => setOpenId(null)} />
          )}
        </section>
      </div>
    </div>
  );
}

function ThreadItem({ thread, selected, open, onOpen }: { thread: InboxThread; selected: boolean; open: boolean; onOpen: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);
  const label = labelName(thread.label);
  return (
    <li>
      <button
        ref={ref}
        type="button"
        onClick={onOpen}
        data-testid="inbox-thread"
        aria-current={open ? "true" : undefined}
        className={`w-full rounded-md border p-3 text-left ${selected ? "border-brand ring-2 ring-brand/40" : "border-slate-200"} ${open ? "bg-slate-50" : "bg-white"}`}
      >
        <div className="flex items-baseline justify-between gap-2">
          <span className={`truncate ${thread.unread ? "font-bold" : ""}`}>
            {thread.unread ? <span className="sr-only">Unread: </span> : null}
            {thread.businessName ?? thread.prospect}
          </span>
          <span className="shrink-0 text-xs text-slate-500">{formatDateTime(thread.lastReplyAt)}</span>
        </div>
        <p className="truncate text-xs text-slate-600">
          {thread.prospect}
          {thread.campaignName ? ` · ${thread.campaignName}` : ""}
        </p>
        <p className={`mt-1 line-clamp-2 text-sm ${thread.unread ? "text-slate-900" : "text-slate-600"}`}>{thread.excerpt || thread.subject}</p>
        <div className="mt-1 flex flex-wrap gap-1">
          {thread.reading ? <Badge value={thread.reading.sentiment} /> : null}
          {thread.reading ? <Badge value={ACTION_LABELS[thread.reading.action] ?? thread.reading.action} /> : null}
          {thread.reading && thread.reading.escalations.length > 0 ? <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">Escalated</span> : null}
          {thread.awaitingApproval ? <span className="rounded-full bg-blue-100 px-2 py-0.5 text-xs text-blue-900">Answer waiting for approval</span> : null}
          {label ? <span className="rounded-full bg-slate-800 px-2 py-0.5 text-xs text-white">{label}</span> : null}
          {thread.done ? <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-700">Done</span> : null}
        </div>
      </button>
    </li>
  );
}
