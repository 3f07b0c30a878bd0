/** Search Logs (/search-log, B §2.14): the chunks of the most recent search, with their technical details. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { buttonClass } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { excludedPreview, latestSearch, rawPreview, type SearchLogRow } from "./grouping";
import { usePageTitle } from "../../lib/title";

export function SearchLogPage() {
  usePageTitle("Search Log");
  const logs = useQuery<SearchLogRow[] | null>({ queryKey: ["/api/search-logs"] });
  const chunks = latestSearch(logs.data ?? []);
  return (
    <main className="mx-auto max-w-4xl space-y-4 p-6">
      <Link to="/dashboard" className={buttonClass("ghost")}>← Back to Dashboard</Link>
      <h1 className="text-2xl font-bold">Search Logs</h1>
      {logs.isLoading ? null : chunks.length === 0 ? (
        <Card>
          <p className="text-slate-600">No recent search logs</p>
        </Card>
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-3">
            <Card title="Current Search"><p data-testid="current-search">{chunks[0].searchTerm}</p></Card>
            <Card title="Total Chunks"><p className="text-2xl font-bold" data-testid="total-chunks">{chunks.length}</p></Card>
            <Card title="Businesses Found"><p className="text-2xl font-bold" data-testid="businesses-found">{chunks.reduce((sum, chunk) => sum + chunk.businessesFound, 0)}</p></Card>
          </div>
          <ol className="space-y-3" aria-label="Chunks">
            {chunks.map((chunk) => (
              <li key={chunk.id} aria-label={`Chunk ${chunk.chunkNumber}`} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
                <h2 className="font-semibold">Chunk {chunk.chunkNumber}</h2>
                <p>Requested {chunk.maxResults}, found {chunk.businessesFound} · {new Date(chunk.createdAt).toLocaleTimeString()}</p>
                {chunk.excludedItems ? <p className="text-slate-600">Excluded from previous chunks: {excludedPreview(chunk.excludedItems)}</p> : null}
                <ul className="mt-2 list-disc pl-5">
                  {(chunk.businessData ?? []).map((business, index) => (
                    <li key={index}>
                      {business.name || "Unknown Business"}
                      {business.email ? <span className="text-slate-600"> · {business.email}</span> : null}
                    </li>
                  ))}
                </ul>
                <details className="mt-2">
                  <summary className="cursor-pointer text-slate-600">Technical details</summary>
                  <p className="mt-1 font-medium">Query</p>
                  <pre className="overflow-auto rounded bg-slate-100 p-2 text-xs">{chunk.query}</pre>
                  <p className="mt-1 font-medium">Raw response</p>
                  <pre className="overflow-auto rounded bg-slate-100 p-2 text-xs">{rawPreview(chunk.rawResponse)}</pre>
                </details>
              </li>
            ))}
          </ol>
        </>
      )}
    </main>
  );
}
