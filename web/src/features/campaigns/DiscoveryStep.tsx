/** Step 2, Business Discovery (A §2, §5, §8, §9): the search form, progress while chunks run, the results with
 * select-all, details, CSV export, and Proceed To Step 3. */
import { useEffect, useState } from "react";
import { Button, buttonClass } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextField } from "../../components/ui/field";
import { toast } from "../../components/ui/toast-store";
import { CLEAR_SEARCH_DATA } from "../../lib/events";
import { serverMessage } from "../../lib/request";
import { STORAGE_KEYS } from "../../lib/storage";
import { json, type Campaign } from "./api";

export interface Business {
  id: number;
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  category: string | null;
  rating: number | null;
  emailStatus: string;
  emailSource?: string | null;
  /** The MX verdict of an address the crawler found. */
  emailVerdict?: "deliverable" | "no_mx" | "unknown" | null;
  socialMedia: { platform: string; handle: string; url: string }[];
  provenance: { provider: string; query: string | null; sourceUrl: string | null; foundAt: string };
}

interface SearchAnswer {
  searchId: number;
  status: "running" | "complete" | "cancelled";
  chunksDone: number;
  chunksTotal: number;
  businesses: Business[];
  attribution: string;
}

export const RADIUS_OPTIONS = [5, 10, 25, 50, 100];
export const ONLINE_TYPES = ["bloggers", "youtubers", "podcasters", "influencers", "other"];
const EMPTY_FORM = { searchType: "local", businessType: "", geographicArea: "", radius: "25", maxResults: "50", onlineBusinessType: "bloggers", topics: "" };
type Form = typeof EMPTY_FORM;

/** A §5, the first failing rule's message. */
export function searchError(form: Form): string | null {
  if (!form.searchType) return "Search type is required";
  const max = Number(form.maxResults);
  if (!Number.isInteger(max) || max < 1 || max > 200) return "Max results must be between 1 and 200";
  if (form.searchType === "local") {
    if (!form.businessType.trim()) return "Business type is required";
    if (!form.geographicArea.trim()) return "Geographic area is required";
    if (!form.radius) return "Search radius is required";
  } else {
    if (!form.onlineBusinessType) return "Online business type is required";
    if (!form.topics.trim()) return "Topics are required";
  }
  return null;
}

/** Every field of the chosen businesses, provenance included, as CSV. A cell a spreadsheet would run as a formula
 * (starting with =, +, -, @, a tab or a carriage return: business data comes from websites and imports) gets a
 * leading apostrophe, so it opens as text; phone numbers such as +358 show as written. */
export function businessesCsv(businesses: Business[]): string {
  const header = ["name", "email", "email_source", "email_check", "phone", "website", "address", "category", "rating", "provider", "query", "source_url", "found_at"];
  const cell = (value: unknown) => {
    const raw = value === null || value === undefined ? "" : String(value);
    const text = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const rows = businesses.map((b) => [b.name, b.email, b.emailSource, b.emailVerdict && VERDICTS[b.emailVerdict], b.phone, b.website, b.address, b.category, b.rating, b.provenance.provider, b.provenance.query, b.provenance.sourceUrl, b.provenance.foundAt].map(cell).join(","));
  return [header.join(","), ...rows].join("\n");
}

/** What an address's MX verdict means for the user; an address is never hidden for its verdict. */
export const VERDICTS = {
  deliverable: "Domain accepts email",
  no_mx: "Domain has no mail server",
  unknown: "Mail server not checked",
} as const;

function emailLabel(business: Business): string {
  if (business.email) return business.email;
  if (business.emailStatus === "pending") return "Email Pending";
  if (business.emailStatus === "not_found") return "No email found";
  return "No email listed";
}

export function DiscoveryStep({ campaign, onProceed }: { campaign: Campaign; onProceed: (ids: number[]) => void }) {
  const [form, setForm] = useState<Form>(() => ({
    ...EMPTY_FORM,
    businessType: campaign.businessType ?? "",
    geographicArea: campaign.geographicArea && campaign.geographicArea !== "online" ? campaign.geographicArea : "",
  }));
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [details, setDetails] = useState<Business | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const clear = () => {
      setForm(EMPTY_FORM);
      setAnswer(null);
      setSelected(new Set());
    };
    window.addEventListener(CLEAR_SEARCH_DATA, clear);
    return () => window.removeEventListener(CLEAR_SEARCH_DATA, clear);
  }, []);

  // Keep polling while chunks are still running.
  useEffect(() => {
    if (answer?.status !== "running") return;
    const timer = setTimeout(() => {
      json<SearchAnswer>("GET", `/api/businesses/search/${answer.searchId}`)
        .then(setAnswer)
        .catch((failure) => toast({ title: "Search failed", description: serverMessage(failure) ?? String(failure), variant: "destructive" }));
    }, 1000);
    return () => clearTimeout(timer);
  }, [answer]);

  // Addresses being looked up on the businesses' websites: refresh until each lookup ends.
  const pending = (answer?.businesses ?? []).some((business) => business.emailStatus === "pending");
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      json<Business[]>("GET", "/api/businesses")
        .then((latest) => {
          const byId = new Map(latest.map((business) => [business.id, business]));
          setAnswer((current) => current && { ...current, businesses: current.businesses.map((business) => byId.get(business.id) ?? business) });
        })
        .catch(() => undefined);
    }, 2000);
    return () => clearTimeout(timer);
  }, [pending, answer]);

  const lookUpSocial = async (business: Business) => {
    try {
      const result = await json<{ business: Business }>("POST", `/api/businesses/${business.id}/social-media`);
      // Update the dialog only if it still shows this business (it may have been closed meanwhile).
      setDetails((open) => (open && open.id === business.id ? result.business : open));
      setAnswer((current) => current && { ...current, businesses: current.businesses.map((b) => (b.id === business.id ? result.business : b)) });
    } catch (failure) {
      toast({ title: "Social media search failed", description: serverMessage(failure) ?? String(failure), variant: "destructive" });
    }
  };

  const submit = async () => {
    const problem = searchError(form);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const local = form.searchType === "local";
      const body = local
        ? { searchType: "local", businessType: form.businessType, geographicArea: form.geographicArea, radius: Number(form.radius), maxResults: Number(form.maxResults), campaignId: campaign.id }
        : { searchType: "online", onlineBusinessType: form.onlineBusinessType, topics: form.topics, maxResults: Number(form.maxResults), campaignId: campaign.id };
      const result = await json<SearchAnswer>("POST", "/api/businesses/search", body);
      setAnswer(result);
      setSelected(new Set());
    } catch (failure) {
      toast({ title: "Search failed", description: serverMessage(failure) ?? String(failure), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  const businesses = answer?.businesses ?? [];
  const toggle = (id: number) => setSelected((current) => {
    const next = new Set(current);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  const exportCsv = () => {
    const chosen = selected.size ? businesses.filter((b) => selected.has(b.id)) : businesses;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([businessesCsv(chosen)], { type: "text/csv" }));
    link.download = "businesses.csv";
    link.click();
  };
  const importCsv = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append("file", file);
    try {
      type Skipped = { line: number; message: string };
      const result = await json<{ imported: number; skipped: number; errors: Skipped[]; duplicates: Skipped[]; businesses: Business[] }>("POST", "/api/businesses/import", form);
      // Why rows were skipped, in file order: bad rows and duplicates of businesses already in the list.
      const skipped = [...result.errors, ...result.duplicates].sort((a, b) => a.line - b.line);
      const problems = skipped.slice(0, 3).map((row) => `line ${row.line}: ${row.message}`).join("; ") + (skipped.length > 3 ? "; ..." : "");
      toast({ title: `Imported ${result.imported} businesses`, description: `${result.skipped} skipped${problems ? ` (${problems})` : ""}` });
      setAnswer((current) => ({
        searchId: current?.searchId ?? 0,
        status: current?.status === "running" ? "running" : "complete",
        chunksDone: current?.chunksDone ?? 0,
        chunksTotal: current?.chunksTotal ?? 0,
        attribution: current?.attribution ?? "",
        businesses: [...(current?.businesses ?? []), ...result.businesses],
      }));
    } catch (failure) {
      toast({ title: "Import failed", description: serverMessage(failure) ?? String(failure), variant: "destructive" });
    }
  };

  const proceed = () => {
    const ids = selected.size ? [...selected] : businesses.map((b) => b.id);
    localStorage.setItem(STORAGE_KEYS.selectedBusinesses, JSON.stringify(ids));
    onProceed(ids);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form
        aria-label="Business search"
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <SelectField label="Search type" value={form.searchType} onChange={(e) => setForm({ ...form, searchType: e.target.value })} options={[{ value: "local", label: "Local businesses" }, { value: "online", label: "Online creators" }]} />
        {form.searchType === "local" ? (
          <>
            <TextField label="Business type" placeholder="e.g. cafe, dentist, hair salon" value={form.businessType} onChange={(e) => setForm({ ...form, businessType: e.target.value })} />
            <TextField label="Geographic area" placeholder="e.g. Helsinki" value={form.geographicArea} onChange={(e) => setForm({ ...form, geographicArea: e.target.value })} />
            <SelectField label="Search radius" value={form.radius} onChange={(e) => setForm({ ...form, radius: e.target.value })} options={RADIUS_OPTIONS.map((miles) => ({ value: String(miles), label: `${miles} miles` }))} />
          </>
        ) : (
          <>
            <SelectField label="Online business type" value={form.onlineBusinessType} onChange={(e) => setForm({ ...form, onlineBusinessType: e.target.value })} options={ONLINE_TYPES.map((type) => ({ value: type, label: type }))} />
            <TextField label="Topics" placeholder="e.g. baking, sourdough" value={form.topics} onChange={(e) => setForm({ ...form, topics: e.target.value })} />
          </>
        )}
        <TextField label="Max results" type="number" min={1} max={200} value={form.maxResults} onChange={(e) => setForm({ ...form, maxResults: e.target.value })} />
        {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
        <Button type="submit" disabled={busy || answer?.status === "running"}>{busy ? "Searching..." : "Search"}</Button>
      </form>

      <section aria-label="Discovered businesses" className="space-y-3">
        {answer ? (
          <div role="status" data-testid="search-progress" className="text-sm text-slate-700">
            <div className="mb-1 flex justify-between">
              <span>{answer.status === "running" ? "Searching" : answer.status === "cancelled" ? "Search cancelled" : "Search complete"}: {businesses.length} businesses found</span>
              <span>{answer.chunksDone} of {answer.chunksTotal} chunks</span>
            </div>
            <div className="h-2 rounded bg-slate-200">
              <div className="h-2 rounded bg-brand" style={{ width: `${Math.min(100, (answer.chunksDone / Math.max(1, answer.chunksTotal)) * 100)}%` }} />
            </div>
            {answer.status === "running" ? (
              <Button variant="ghost" onClick={() => void json<SearchAnswer>("POST", `/api/businesses/search/${answer.searchId}/cancel`).then(setAnswer)}>Cancel search</Button>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-600">Search to see businesses here.</p>
        )}
        {businesses.length ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={selected.size === businesses.length} onChange={(e) => setSelected(e.target.checked ? new Set(businesses.map((b) => b.id)) : new Set())} />
                Select all
              </label>
              <Button variant="outline" onClick={exportCsv}>Export CSV</Button>
            </div>
            <ul aria-label="Businesses" className="max-h-96 space-y-2 overflow-y-auto">
              {businesses.map((business) => (
                <li key={business.id} className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm">
                  <input type="checkbox" aria-label={`Select ${business.name}`} checked={selected.has(business.id)} onChange={() => toggle(business.id)} />
                  <button className="flex-1 text-left" onClick={() => setDetails(business)}>
                    <span className="font-medium">{business.name}</span>
                    <span className="block text-slate-600">{business.address ?? business.category}</span>
                    <span className="block text-slate-600">
                      {emailLabel(business)}
                      {business.email && business.emailVerdict && (
                        <span className={`ml-2 text-xs ${business.emailVerdict === "no_mx" ? "text-amber-700" : "text-slate-500"}`}>({VERDICTS[business.emailVerdict]})</span>
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <p className="text-xs text-slate-500">{answer?.attribution}</p>
          </>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <label className={`${buttonClass("outline")} cursor-pointer`}>
            Import CSV
            <input type="file" accept=".csv,text/csv" className="sr-only" onChange={(e) => void importCsv(e.target.files?.[0])} />
          </label>
          <Button onClick={proceed}>Proceed To Step 3</Button>
        </div>
      </section>
      {details ? (
        <Dialog title={details.name} onClose={() => setDetails(null)}>
          <dl className="grid grid-cols-3 gap-1 text-sm">
            {[["Address", details.address], ["Phone", details.phone], ["Email", emailLabel(details)], ["Email found on", details.emailSource ?? null], ["Email check", details.emailVerdict ? VERDICTS[details.emailVerdict] : null], ["Website", details.website], ["Category", details.category], ["Found by", details.provenance.provider], ["Search", details.provenance.query], ["Found", new Date(details.provenance.foundAt).toLocaleString()]].map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-500">{label}</dt>
                <dd className="col-span-2">{value ?? "—"}</dd>
              </div>
            ))}
          </dl>
          {details.socialMedia.length ? (
            <ul aria-label="Social media" className="mt-3 text-sm">
              {details.socialMedia.map((profile) => (
                <li key={profile.url}>
                  {profile.platform}: <a className="text-brand underline" href={profile.url} target="_blank" rel="noopener noreferrer">{profile.handle}</a>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="mt-3 flex gap-3">
            {details.website ? <Button variant="outline" onClick={() => void lookUpSocial(details)}>Look up social media</Button> : null}
            {details.provenance.sourceUrl ? <a className="text-sm text-brand underline" href={details.provenance.sourceUrl} target="_blank" rel="noopener noreferrer">Source</a> : null}
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
