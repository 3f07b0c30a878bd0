import { describe, expect, it } from "vitest";
import { businessesCsv, searchError, type Business } from "./DiscoveryStep";
import { categoriesOf, emailLabel, filterBusinesses, readableCategory, sortBusinesses } from "./results";

/** A business with every field, to vary per case. */
function businessFixture(): Business {
  return {
    id: 1, name: "Cafe", address: null, phone: null, email: null, website: null, category: null, rating: null, emailStatus: "none",
    emailSource: null, emailVerdict: null, websiteError: null, socialMedia: [],
    location: { address: null, city: null, latitude: null, longitude: null },
    provenance: { provider: "directory", query: null, sourceUrl: null, foundAt: "2026-11-21T10:00:00.000Z" },
  };
}

const form = { searchType: "local", businessType: "cafe", geographicArea: "Helsinki", radius: "25", maxResults: "50", onlineBusinessType: "bloggers", topics: "" };

describe("business search form", () => {
  it("applies A §5 in order", () => {
    expect(searchError(form)).toBeNull();
    expect(searchError({ ...form, businessType: " " })).toBe("Business type is required");
    expect(searchError({ ...form, geographicArea: "" })).toBe("Geographic area is required");
    expect(searchError({ ...form, radius: "" })).toBe("Search radius is required");
    expect(searchError({ ...form, maxResults: "201" })).toBe("Max results must be between 1 and 200");
    expect(searchError({ ...form, searchType: "online" })).toBe("Topics are required");
    expect(searchError({ ...form, searchType: "online", topics: "baking" })).toBeNull();
  });

  it("exports every field with provenance, quoting where CSV needs it", () => {
    const business: Business = {
      id: 1, name: 'Café "Ursula", Helsinki', address: "Ehrenströmintie 3", phone: null, email: "hello@ursula.fi", website: null,
      category: "amenity=cafe", rating: null, emailStatus: "found", emailSource: "https://ursula.fi/contact", emailVerdict: "deliverable", socialMedia: [],
      location: { address: "Ehrenströmintie 3", city: "Helsinki", latitude: null, longitude: null },
      provenance: { provider: "directory", query: "cafe in Helsinki", sourceUrl: "https://www.openstreetmap.org/node/1", foundAt: "2026-11-21T10:00:00.000Z" },
    };
    const [header, row] = businessesCsv([business]).split("\n");
    expect(header).toBe("name,email,email_source,email_check,phone,website,address,category,rating,provider,query,source_url,found_at");
    expect(row).toBe('"Café ""Ursula"", Helsinki",hello@ursula.fi,https://ursula.fi/contact,Domain accepts email,,,Ehrenströmintie 3,amenity=cafe,,directory,cafe in Helsinki,https://www.openstreetmap.org/node/1,2026-11-21T10:00:00.000Z');
  });

  it("neutralises cells a spreadsheet would run as formulas", () => {
    const business: Business = {
      id: 2, name: '=HYPERLINK("http://evil.example","Open")', address: "@SUM(A1:A9)", phone: "+358 9 123 4567", email: null,
      website: "-2+3", category: "\tcmd", rating: null, emailStatus: "none", emailSource: null, emailVerdict: null, socialMedia: [],
      location: { address: "@SUM(A1:A9)", city: null, latitude: null, longitude: null },
      provenance: { provider: "import", query: "\r=1+1", sourceUrl: null, foundAt: "2026-11-21T10:00:00.000Z" },
    };
    const [, row] = businessesCsv([business]).split("\n");
    expect(row).toBe(
      `"'=HYPERLINK(""http://evil.example"",""Open"")",,,,'+358 9 123 4567,'-2+3,'@SUM(A1:A9),'\tcmd,,import,"'\r=1+1",,2026-11-21T10:00:00.000Z`,
    );
  });
});

describe("the results list", () => {
  const base = businessFixture();
  it("reads OpenStreetMap categories as words", () => {
    expect(readableCategory("amenity=cafe")).toBe("Cafe");
    expect(readableCategory("shop=hair_salon")).toBe("Hair salon");
    expect(readableCategory("Bakery")).toBe("Bakery");
    expect(readableCategory(null)).toBeNull();
  });

  it("says whether the website could be read when no address was found", () => {
    expect(emailLabel({ ...base, email: null, emailStatus: "not_found", website: "https://cafe.example", websiteError: "timed out" })).toBe("No email found: the website could not be read");
    expect(emailLabel({ ...base, email: null, emailStatus: "not_found", website: "https://cafe.example", websiteError: null })).toBe("No email found on the website");
    expect(emailLabel({ ...base, email: null, emailStatus: "not_found", website: null })).toBe("No email found: no website to read");
    expect(emailLabel({ ...base, email: null, emailStatus: "pending" })).toBe("Email Pending");
  });

  it("filters by address, category and email check, and sorts", () => {
    const list: Business[] = [
      { ...base, id: 1, name: "Bakery B", email: null, category: "shop=bakery", rating: 4 },
      { ...base, id: 2, name: "Cafe A", email: "a@cafe.example", emailVerdict: "no_mx", category: "amenity=cafe", rating: null },
      { ...base, id: 3, name: "Cafe C", email: "c@cafe.example", emailVerdict: "deliverable", category: "amenity=cafe", rating: 5 },
    ];
    const ids = (found: Business[]) => found.map((business) => business.id);
    expect(ids(filterBusinesses(list, { hasEmail: true, category: "", verdict: "" }))).toEqual([2, 3]);
    expect(ids(filterBusinesses(list, { hasEmail: false, category: "Bakery", verdict: "" }))).toEqual([1]);
    expect(ids(filterBusinesses(list, { hasEmail: false, category: "", verdict: "deliverable" }))).toEqual([3]);
    expect(ids(sortBusinesses([...list].reverse(), "name"))).toEqual([1, 2, 3]);
    expect(ids(sortBusinesses(list, "email"))).toEqual([2, 3, 1]);
    expect(ids(sortBusinesses(list, "rating"))).toEqual([3, 1, 2]);
    expect(categoriesOf(list)).toEqual(["Bakery", "Cafe"]);
  });
});
