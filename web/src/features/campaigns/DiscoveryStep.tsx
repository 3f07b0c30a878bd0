/** Step 2, Business Discovery (A §2, §5, §8, §9): the search form, progress while chunks run, the results with
 * select-all, details, CSV export, and Proceed To Step 3. */
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { FileButton } from "../../components/ui/file-button";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { CLEAR_SEARCH_DATA } from "@outreach/client/events";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { readSelection, writeSelection } from "../../lib/storage";
import { type Campaign } from "./api";
import type { Business, ImportReport, SearchAnswer, SocialLookup } from "@outreach/client/api/types";
import { count } from "../../lib/format";
import { NO_FILTERS, SORTS, VERDICTS, categoriesOf, emailLabel, filterBusinesses, readableCategory, sortBusinesses, websiteHost, type Sort } from "./results";

export const RADIUS_OPTIONS = [5, 10, 25, 50, 100];
export const ONLINE_TYPES = ["bloggers", "youtubers", "podcasters", "influencers", "other"];
const SEARCH_POLL_MS = 1000;
const ENRICHMENT_POLL_MS = 2000;
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

export function DiscoveryStep({ campaign, onProceed }: { campaign: Campaign; onProceed: (ids: number[]) => void }) {
  const [form, setForm] = useState<Form>(() => ({
    ...EMPTY_FORM,
    businessType: campaign.businessType ?? "",
    geographicArea: campaign.geographicArea && campaign.geographicArea !== "online" ? campaign.geographicArea : "",
  }));
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  // The businesses ticked on this browser (kept over a reload), else the campaign's recipients chosen before on any
  // device.
  const [selected, setSelected] = useState<Set<number>>(() => new Set(readSelection(campaign.id) ?? campaign.businessIds));
  useEffect(() => writeSelection(campaign.id, [...selected]), [campaign.id, selected]);
  const [details, setDetails] = useState<Business | null>(null);
  const [filters, setFilters] = useState(NO_FILTERS);
  const [sort, setSort] = useState<Sort>("found");

  useEffect(() => {
    const clear = () => {
      setForm(EMPTY_FORM);
      setAnswer(null);
      setSelected(new Set());
    };
    window.addEventListener(CLEAR_SEARCH_DATA, clear);
    return () => window.removeEventListener(CLEAR_SEARCH_DATA, clear);
  }, []);

  // The campaign's last search comes back after a reload; while chunks are still running it is read again every
  // second (A §9).
  const running = answer?.status === "running";
  const restoring = answer === null && campaign.searchId != null;
  const searchId = answer?.searchId ?? campaign.searchId;
  const progress = useQuery<SearchAnswer | null>({
    queryKey: [`/api/businesses/search/${searchId}`],
    enabled: running || restoring,
    refetchInterval: (query) => (query.state.status !== "error" && query.state.data?.status === "running" ? SEARCH_POLL_MS : false),
  });
  // Each new reading replaces the answer (adjusted while rendering, as React advises for state that follows data).
  const [readProgress, setReadProgress] = useState(progress.data);
  if (progress.data !== readProgress) {
    setReadProgress(progress.data);
    if ((running || restoring) && progress.data) setAnswer(progress.data);
  }
  // Recipients chosen without a search (an import) come back as the campaign's own businesses.
  const restoringChosen = answer === null && campaign.searchId == null && campaign.businessIds.length > 0;
  const owned = useQuery<Business[] | null>({ queryKey: ["/api/businesses"], enabled: restoringChosen });
  const [readOwned, setReadOwned] = useState(owned.data);
  if (owned.data !== readOwned) {
    setReadOwned(owned.data);
    if (restoringChosen && owned.data) {
      const ids = new Set(campaign.businessIds);
      const businesses = owned.data.filter((business) => ids.has(business.id));
      setAnswer({ searchId: 0, searchTerm: "", status: "complete", chunksDone: 0, chunksTotal: 0, attribution: "", businessesFound: businesses.length, businesses });
    }
  }
  useEffect(() => {
    if (progress.error) toast({ title: "Search failed", description: serverMessage(progress.error) ?? String(progress.error), variant: "destructive" });
  }, [progress.error]);

  // Addresses being looked up on the businesses' websites: read again until each lookup ends.
  const pending = (answer?.businesses ?? []).some((business) => business.emailStatus === "pending");
  const latest = useQuery<Business[] | null>({ queryKey: ["/api/businesses"], enabled: pending, refetchInterval: pending ? ENRICHMENT_POLL_MS : false });
  const [readLatest, setReadLatest] = useState(latest.data);
  if (latest.data !== readLatest) {
    setReadLatest(latest.data);
    const byId = new Map((latest.data ?? []).map((business) => [business.id, business]));
    setAnswer((current) => current && { ...current, businesses: current.businesses.map((business) => byId.get(business.id) ?? business) });
  }

  const lookingUp = useApiMutation({
    mutationFn: (business: Business) => requestJson<SocialLookup>("POST", `/api/businesses/${business.id}/social-media`),
    failure: (failure) => ({ title: "Social media search failed", description: serverMessage(failure) ?? String(failure) }),
    // Say what was found, or that nothing was.
    success: ({ socialMedia, business }) =>
      socialMedia.length
        ? { title: `Found ${count(socialMedia.length, "social profile", "social profiles")}`, description: socialMedia.map((profile) => profile.platform).join(", ") }
        : { title: "No social media profiles found", description: business.websiteError ? `The website could not be read: ${business.websiteError}` : `None are linked from ${business.website ?? "the website"}.` },
    onSuccess: ({ business }) => {
      // Update the dialog only if it still shows this business (it may have been closed meanwhile).
      setDetails((open) => (open && open.id === business.id ? business : open));
      setAnswer((current) => current && { ...current, businesses: current.businesses.map((b) => (b.id === business.id ? business : b)) });
    },
  });

  const searching = useApiMutation({
    mutationFn: (sent: Form) => {
      const body =
        sent.searchType === "local"
          ? { searchType: "local", businessType: sent.businessType, geographicArea: sent.geographicArea, radius: Number(sent.radius), maxResults: Number(sent.maxResults), campaignId: campaign.id }
          : { searchType: "online", onlineBusinessType: sent.onlineBusinessType, topics: sent.topics, maxResults: Number(sent.maxResults), campaignId: campaign.id };
      return requestJson<SearchAnswer>("POST", "/api/businesses/search", body);
    },
    failure: (failure) => ({ title: "Search failed", description: serverMessage(failure) ?? String(failure) }),
    onSuccess: (result) => {
      setAnswer(result);
      setSelected(new Set());
    },
  });
  const busy = searching.isPending;

  const cancelling = useApiMutation({
    mutationFn: (searchId: number) => requestJson<SearchAnswer>("POST", `/api/businesses/search/${searchId}/cancel`),
    failure: { title: "Search not cancelled", description: "Please try again" },
    onSuccess: setAnswer,
  });

  const submit = () => {
    const problem = searchError(form);
    setError(problem);
    if (!problem) searching.mutate(form);
  };

  const businesses = answer?.businesses ?? [];
  const shown = sortBusinesses(filterBusinesses(businesses, filters), sort);
  const allShownChosen = shown.length > 0 && shown.every((business) => selected.has(business.id));
  const chooseShown = (on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const business of shown) {
        if (on) next.add(business.id);
        else next.delete(business.id);
      }
      return next;
    });
  const toggle = (id: number) => setSelected((current) => {
    const next = new Set(current);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  const exportCsv = () => {
    const rows = selected.size ? businesses.filter((b) => selected.has(b.id)) : businesses;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([businessesCsv(rows)], { type: "text/csv" }));
    link.download = "businesses.csv";
    link.click();
  };
  const importing = useApiMutation({
    mutationFn: (file: File) => {
      const upload = new FormData();
      upload.append("file", file);
      return requestJson<ImportReport>("POST", "/api/businesses/import", upload);
    },
    success: (result) => {
      // Why rows were skipped, in file order: bad rows and duplicates of businesses already in the list.
      const skipped = [...result.errors, ...result.duplicates].sort((a, b) => a.line - b.line);
      const problems = skipped.slice(0, 3).map((row) => `line ${row.line}: ${row.message}`).join("; ") + (skipped.length > 3 ? "; ..." : "");
      return { title: `Imported ${result.imported} businesses`, description: `${result.skipped} skipped${problems ? ` (${problems})` : ""}` };
    },
    failure: (failure) => ({ title: "Import failed", description: serverMessage(failure) ?? String(failure) }),
    onSuccess: (result) =>
      setAnswer((current) => {
        const businesses = [...(current?.businesses ?? []), ...result.businesses];
        return {
          searchId: current?.searchId ?? 0,
          searchTerm: current?.searchTerm ?? "",
          status: current?.status === "running" ? "running" : "complete",
          chunksDone: current?.chunksDone ?? 0,
          chunksTotal: current?.chunksTotal ?? 0,
          attribution: current?.attribution ?? "",
          businessesFound: businesses.length,
          businesses,
        };
      }),
  });

  // Recipients are explicit: the businesses ticked, nothing else.
  const chosen = businesses.filter((business) => selected.has(business.id));
  const reachable = chosen.filter((business) => business.email).length;
  const proceed = () => {
    onProceed(chosen.map((business) => business.id));
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form
        aria-label="Business search"
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
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
              <Button variant="ghost" onClick={() => cancelling.mutate(answer.searchId)}>Cancel search</Button>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-600">Search to see businesses here.</p>
        )}
        {businesses.length ? (
          <>
            <fieldset className="grid grid-cols-2 gap-2 rounded-md border border-slate-200 p-2 text-sm sm:grid-cols-4" aria-label="Filter and sort">
              <label className="flex items-center gap-2 self-end pb-2">
                <input type="checkbox" checked={filters.hasEmail} onChange={(e) => setFilters({ ...filters, hasEmail: e.target.checked })} />
                Has email
              </label>
              <SelectField
                label="Category"
                value={filters.category}
                onChange={(e) => setFilters({ ...filters, category: e.target.value })}
                options={[{ value: "", label: "All" }, ...categoriesOf(businesses).map((name) => ({ value: name, label: name }))]}
              />
              <SelectField
                label="Email check"
                value={filters.verdict}
                onChange={(e) => setFilters({ ...filters, verdict: e.target.value })}
                options={[{ value: "", label: "Any" }, ...Object.entries(VERDICTS).map(([value, label]) => ({ value, label }))]}
              />
              <SelectField label="Sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)} options={Object.entries(SORTS).map(([value, label]) => ({ value, label }))} />
            </fieldset>
            <div className="flex flex-wrap items-center gap-2">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={allShownChosen} onChange={(e) => chooseShown(e.target.checked)} />
                Select all
              </label>
              <Button variant="outline" onClick={exportCsv}>Export CSV</Button>
              <span className="text-xs text-slate-500" data-testid="shown">
                Showing {shown.length} of {count(businesses.length, "business", "businesses")}, {businesses.filter((business) => business.email).length} with an email address
              </span>
            </div>
            <ul aria-label="Businesses" className="max-h-96 space-y-2 overflow-y-auto">
              {shown.map((business) => (
                <li key={business.id} className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm">
                  <input type="checkbox" aria-label={`Select ${business.name}`} checked={selected.has(business.id)} onChange={() => toggle(business.id)} />
                  <div className="min-w-0 flex-1">
                    <button className="text-left font-medium hover:underline" onClick={() => setDetails(business)}>
                      {business.name}
                    </button>
                    {readableCategory(business.category) ? (
                      <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{readableCategory(business.category)}</span>
                    ) : null}
                    {business.address ? <span className="block text-slate-600">{business.address}</span> : null}
                    <span className="block text-slate-600">
                      {business.website ? (
                        <a className="text-brand underline" href={business.website} target="_blank" rel="noopener noreferrer">
                          {websiteHost(business.website)}
                        </a>
                      ) : null}
                      {business.website && business.phone ? " · " : null}
                      {business.phone ? <a href={`tel:${business.phone}`}>{business.phone}</a> : null}
                    </span>
                    <span className={`block ${business.email ? "text-slate-800" : "text-slate-500"}`}>
                      {emailLabel(business)}
                      {business.email && business.emailVerdict && (
                        <span className={`ml-2 text-xs ${business.emailVerdict === "no_mx" ? "text-amber-700" : "text-slate-500"}`}>({VERDICTS[business.emailVerdict]})</span>
                      )}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
            <p className="text-xs text-slate-500">{answer?.attribution}</p>
          </>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <FileButton accept=".csv,text/csv" onFiles={(files) => importing.mutate(files[0])}>
            Import CSV
          </FileButton>
          <Button onClick={proceed} disabled={chosen.length === 0}>Proceed To Step 3</Button>
        </div>
        <p className="text-sm text-slate-600" data-testid="selection" aria-live="polite">
          {chosen.length === 0
            ? "Tick the businesses to email, then proceed."
            : `${chosen.length} selected, ${reachable} with an email address`}
        </p>
      </section>
      {details ? (
        <Dialog title={details.name} onClose={() => setDetails(null)}>
          <dl className="grid grid-cols-3 gap-1 text-sm">
            {[["Address", details.address], ["Phone", details.phone], ["Email", emailLabel(details)], ["Email found on", details.emailSource ?? null], ["Email check", details.emailVerdict ? VERDICTS[details.emailVerdict] : null], ["Website", details.website], ["Website read", details.websiteError ? `No: ${details.websiteError}` : null], ["Category", readableCategory(details.category)], ["Found by", details.provenance.provider], ["Search", details.provenance.query], ["Found", new Date(details.provenance.foundAt).toLocaleString()]].map(([label, value]) => (
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
            {details.website ? <Button variant="outline" onClick={() => lookingUp.mutate(details)}>Look up social media</Button> : null}
            {details.provenance.sourceUrl ? <a className="text-sm text-brand underline" href={details.provenance.sourceUrl} target="_blank" rel="noopener noreferrer">Source</a> : null}
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

export type { Business };
