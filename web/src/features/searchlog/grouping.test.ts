import { expect, it } from "vitest";
import { excludedPreview, latestSearch, rawPreview, type SearchLogRow } from "./grouping";

const row = (id: number, term: string, minutesAgo: number, chunk: number, searchId = 1): SearchLogRow => ({
  id, searchId, searchTerm: term, searchType: "local", createdAt: new Date(Date.UTC(2026, 10, 21, 12) - minutesAgo * 60_000).toISOString(),
  chunkNumber: chunk, maxResults: 25, businessesFound: 25, excludedItems: "", businessData: [], query: "", rawResponse: "",
});

it("groups the latest term's rows within 30 minutes, by chunk", () => {
  const rows = [row(1, "cafe in Helsinki", 0, 2), row(2, "cafe in Helsinki", 1, 1), row(3, "cafe in Helsinki", 45, 1), row(4, "bar in Espoo", 5, 1)];
  expect(latestSearch(rows).map((r) => r.id)).toEqual([2, 1]);
  expect(latestSearch([])).toEqual([]);
});

it("keeps separate searches of one term apart: a daily run after the builder's search is a search of its own", () => {
  const rows = [row(1, "cafe in Helsinki", 0, 1, 8), row(2, "cafe in Helsinki", 3, 2, 7), row(3, "cafe in Helsinki", 4, 1, 7)];
  expect(latestSearch(rows).map((r) => r.id)).toEqual([1]);
});

it("previews five excluded items and 500 characters of the raw response", () => {
  expect(excludedPreview("a, b, c, d, e, f, g")).toBe("a, b, c, d, e, …");
  expect(excludedPreview("a, b")).toBe("a, b");
  expect(rawPreview("x".repeat(600))).toBe(`${"x".repeat(500)}…`);
});
