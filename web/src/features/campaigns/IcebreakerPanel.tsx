/** A prospect's icebreaker in the composer's preview (issue 82): the first line written from facts of its own
 * website, each source a link to its page with the exact sentence, which the user can edit, drop or have written
 * again before launch. No facts: no line, and the template's fallback is sent. */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { TextArea } from "../../components/ui/field";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import type { Icebreaker } from "@outreach/client/api/types";

/** GET answers 404 when the website gave nothing: that is no line, not a failure. */
async function loadIcebreaker(businessId: number): Promise<Icebreaker | null> {
  try {
    return await requestJson<Icebreaker>("GET", `/api/businesses/${businessId}/icebreaker`);
  } catch (failure) {
    if (failure instanceof Error && failure.message.startsWith("404:")) return null;
    throw failure;
  }
}

export function IcebreakerPanel({ businessId, onChanged }: { businessId: number; onChanged: () => void }) {
  const key = ["icebreaker", businessId];
  const client = useQueryClient();
  const line = useQuery({ queryKey: key, queryFn: () => loadIcebreaker(businessId) });
  const [draft, setDraft] = useState<string | null>(null);
  const settle = (data: Icebreaker) => {
    client.setQueryData(key, data);
    setDraft(null);
    onChanged();
  };
  const failure = (title: string) => (error: Error) => ({ title, description: serverMessage(error) ?? "Please try again." });
  const saving = useApiMutation({
    mutationFn: (text: string) => requestJson<Icebreaker>("PUT", `/api/businesses/${businessId}/icebreaker`, { text }),
    success: (data) => ({ title: data.origin === "dropped" ? "Icebreaker dropped" : "Icebreaker saved" }),
    failure: failure("Icebreaker not saved"),
    onSuccess: settle,
  });
  const rewriting = useApiMutation({
    mutationFn: () => requestJson<Icebreaker>("POST", `/api/businesses/${businessId}/icebreaker`, {}),
    success: { title: "Icebreaker written again" },
    failure: failure("No new icebreaker"),
    onSuccess: settle,
  });
  if (line.isPending) return <p className="text-sm text-slate-600">Reading the icebreaker...</p>;
  const icebreaker = line.data ?? null;
  return (
    <section className="space-y-2 rounded border border-sky-200 bg-sky-50 p-3 text-sm" data-testid="icebreaker" aria-label="Icebreaker">
      <h4 className="font-semibold">Icebreaker</h4>
      {icebreaker === null ? (
        <p data-testid="icebreaker-none">Their website gave no facts for a first line: the template's fallback is sent.</p>
      ) : (
        <>
          <p data-testid="icebreaker-text">
            {icebreaker.origin === "dropped" ? <em>Dropped: the template's fallback is sent.</em> : icebreaker.text}
          </p>
          {icebreaker.facts.length ? (
            <ul className="list-disc space-y-1 pl-5" data-testid="icebreaker-sources">
              {icebreaker.facts.map((fact) => (
                <li key={`${fact.url}|${fact.quote}`}>
                  <a className="text-sky-800 underline" href={fact.url} target="_blank" rel="noopener noreferrer">
                    {fact.url}
                  </a>
                  : “{fact.quote}”
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
      {draft !== null ? (
        <div className="space-y-2">
          <TextArea label="Your first line (at most 300 characters)" value={draft} maxLength={300} onChange={(event) => setDraft(event.target.value)} />
          <div className="flex gap-2">
            <Button disabled={saving.isPending} onClick={() => saving.mutate(draft)}>
              Save Line
            </Button>
            <Button variant="outline" onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setDraft(icebreaker?.origin === "dropped" ? "" : (icebreaker?.text ?? ""))}>
            Edit Line
          </Button>
          {icebreaker && icebreaker.origin !== "dropped" ? (
            <Button variant="outline" disabled={saving.isPending} onClick={() => saving.mutate("")}>
              Drop Line
            </Button>
          ) : null}
          <Button variant="outline" disabled={rewriting.isPending} onClick={() => rewriting.mutate()}>
            {rewriting.isPending ? "Reading their website..." : "Write Again"}
          </Button>
        </div>
      )}
    </section>
  );
}
