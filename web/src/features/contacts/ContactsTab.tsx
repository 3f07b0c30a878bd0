/** The Contacts tab (B §2.7, A §1): six stat cards, search, status filter, the table (scrolls at 500 px) and the
 * details dialog with the contact's full history and the user's notes. Refetched every 30 s. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextArea, TextField } from "../../components/ui/field";
import { useApiMutation } from "@outreach/client/mutation";
import { apiRequest } from "@outreach/client/request";
import { Badge, InterestBadge } from "../../components/ui/badge";
import { Tile } from "../../components/ui/tile";
import { formatDateTime, percentText } from "../../lib/format";
import {
  BADGES,
  CONTACTS_KEY,
  STATS_KEY,
  filterContacts,
  historyKey,
  historyTimeline,
  type Contact,
  type ContactHistory,
  type ContactStats,
  type Note,
} from "./api";

const THIRTY_SECONDS = 30_000;

export function ContactsTab() {
  const contacts = useQuery<Contact[] | null>({ queryKey: [CONTACTS_KEY], refetchInterval: THIRTY_SECONDS });
  const stats = useQuery<ContactStats | null>({ queryKey: [STATS_KEY], refetchInterval: THIRTY_SECONDS });
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("all");
  const [open, setOpen] = useState<Contact | null>(null);
  const s = stats.data;
  const shown = filterContacts(contacts.data ?? [], search, status);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
        <Tile label="Contacted" value={s?.totalContacted ?? "—"} />
        <Tile label="Opened" value={s?.totalOpened ?? "—"} detail={s ? `${percentText(s.openRate)} open rate` : undefined} />
        <Tile label="Clicks" value={s?.totalClicks ?? "—"} />
        <Tile label="Replied" value={s?.totalReplied ?? "—"} detail={s ? `${percentText(s.replyRate)} reply rate` : undefined} />
        <Tile label="Bounced" value={s?.totalBounced ?? "—"} />
        <Tile label="Spam Reports" value={s?.totalSpamReports ?? "—"} />
      </div>
      <Card title="Contacts">
        <div className="mb-3 grid gap-3 md:grid-cols-2">
          <TextField label="Search" type="search" placeholder="Name, email or category" value={search} onChange={(event) => setSearch(event.target.value)} />
          <SelectField
            label="Status"
            value={status}
            onChange={(event) => setStatus(event.target.value)}
            options={[{ value: "all", label: "All statuses" }, ...BADGES.map((badge) => ({ value: badge, label: badge }))]}
          />
        </div>
        {contacts.isLoading ? (
          <p className="text-slate-600">Loading contacts...</p>
        ) : (contacts.data ?? []).length === 0 ? (
          <p className="text-slate-600">No contacts yet. People your campaigns email appear here.</p>
        ) : shown.length === 0 ? (
          <p className="text-slate-600">No contacts match.</p>
        ) : (
          <div className="max-h-[500px] overflow-auto">
            <table className="w-full text-left text-sm">
              <thead className="sticky top-0 bg-white">
                <tr className="border-b border-slate-200">
                  <th className="p-2">Name</th>
                  <th className="p-2">Email</th>
                  <th className="p-2">Status</th>
                  <th className="p-2">Emails</th>
                  <th className="p-2">Last contacted</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((contact) => (
                  <tr key={contact.email} className="cursor-pointer border-b border-slate-200 hover:bg-slate-50" onClick={() => setOpen(contact)}>
                    <td className="p-2">{contact.name ?? "—"}</td>
                    <td className="p-2">{contact.email}</td>
                    <td className="p-2">
                      <Badge value={contact.status} /> <InterestBadge interest={contact.interest} />
                    </td>
                    <td className="p-2">{contact.sent}</td>
                    <td className="p-2">{formatDateTime(contact.lastSentAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {open ? <ContactDialog contact={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

function ContactDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const history = useQuery<ContactHistory | null>({ queryKey: [historyKey(contact.email)] });
  return (
    <Dialog title={contact.name ?? contact.email} onClose={onClose} wide>
      <div className="flex flex-col gap-4 text-sm">
        <dl className="grid grid-cols-2 gap-2">
          <dt className="text-slate-500">Email</dt>
          <dd>{contact.email}</dd>
          <dt className="text-slate-500">Status</dt>
          <dd>
            <Badge value={contact.status} />
          </dd>
          {contact.phone ? (
            <>
              <dt className="text-slate-500">Phone</dt>
              <dd>{contact.phone}</dd>
            </>
          ) : null}
          {contact.address ? (
            <>
              <dt className="text-slate-500">Address</dt>
              <dd>{contact.address}</dd>
            </>
          ) : null}
          {contact.website ? (
            <>
              <dt className="text-slate-500">Website</dt>
              <dd>
                <a href={contact.website} target="_blank" rel="noreferrer noopener" className="text-brand underline">
                  {contact.website}
                </a>
              </dd>
            </>
          ) : null}
        </dl>
        {history.data ? (
          <>
            <section>
              <h3 className="mb-2 font-semibold">History</h3>
              <ol className="flex flex-col gap-2 border-l border-slate-200 pl-4" aria-label="History">
                {historyTimeline(history.data).map((entry, index) => (
                  <li key={index}>
                    <p>
                      <span className="text-slate-500">{formatDateTime(entry.at)}</span> · {entry.title}
                    </p>
                    {entry.detail ? <p className="whitespace-pre-wrap text-xs text-slate-600">{entry.detail}</p> : null}
                  </li>
                ))}
              </ol>
            </section>
            <Notes email={contact.email} notes={history.data.notes} />
          </>
        ) : (
          <p className="text-slate-600">{history.isError ? "The history could not be loaded." : "Loading history..."}</p>
        )}
      </div>
    </Dialog>
  );
}

/** The user's notes on a contact: add, edit, delete. */
function Notes({ email, notes }: { email: string; notes: Note[] }) {
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState<{ id: number; body: string } | null>(null);
  const saving = useApiMutation({
    mutationFn: ({ method, path, body }: { method: "POST" | "PUT" | "DELETE"; path: string; body?: unknown }) => apiRequest(method, path, body),
    failure: { title: "Error", description: "Failed to save the note" },
    invalidates: [[historyKey(email)]],
    onSuccess: (_, { method }) => (method === "POST" ? setDraft("") : method === "PUT" ? setEditing(null) : undefined),
  });
  return (
    <section>
      <h3 className="mb-2 font-semibold">Notes</h3>
      {notes.length === 0 ? <p className="text-slate-600">No notes yet.</p> : null}
      <ul className="mb-3 flex flex-col gap-2" aria-label="Notes">
        {notes.map((note) =>
          editing?.id === note.id ? (
            <li key={note.id} className="flex flex-col gap-2">
              <TextArea label="Edit note" value={editing.body} onChange={(event) => setEditing({ id: note.id, body: event.target.value })} />
              <div className="flex gap-2">
                <Button disabled={saving.isPending} onClick={() => saving.mutate({ method: "PUT", path: `/api/contacts/notes/${note.id}`, body: { body: editing.body } })}>Save</Button>
                <Button variant="outline" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              </div>
            </li>
          ) : (
            <li key={note.id} className="rounded border border-slate-200 p-2">
              <p className="whitespace-pre-wrap">{note.body}</p>
              <p className="text-xs text-slate-500">
                {formatDateTime(note.updatedAt)}
                {note.updatedAt !== note.createdAt ? " (edited)" : ""}
              </p>
              <div className="mt-1 flex gap-3 text-xs">
                <button className="text-brand underline" onClick={() => setEditing({ id: note.id, body: note.body })}>
                  Edit
                </button>
                <button className="text-red-700 underline" onClick={() => saving.mutate({ method: "DELETE", path: `/api/contacts/notes/${note.id}` })}>
                  Delete
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
      <TextArea label="Add a note" value={draft} onChange={(event) => setDraft(event.target.value)} />
      <Button className="mt-2" disabled={!draft.trim() || saving.isPending} onClick={() => saving.mutate({ method: "POST", path: "/api/contacts/notes", body: { email, body: draft } })}>
        Add Note
      </Button>
    </section>
  );
}
