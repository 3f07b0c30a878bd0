/** The discovered businesses as step 2 lists them: readable categories, what became of each address lookup, and
 * the filters and sort orders of the list. */
import type { Business } from "@outreach/client/api/types";

/** What an address's MX verdict means for the user; an address is never hidden for its verdict. */
export const VERDICTS = {
  deliverable: "Domain accepts email",
  no_mx: "Domain has no mail server",
  unknown: "Mail server not checked",
} as const;

/** A category as people say it: OpenStreetMap's `amenity=cafe` reads 'Cafe', `shop=hair_salon` 'Hair salon'. */
export function readableCategory(category: string | null | undefined): string | null {
  if (!category?.trim()) return null;
  const value = category.split(";")[0].split("=").pop() ?? category;
  const words = value.replace(/_/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : null;
}

/** The business's address, or what became of looking for one (A §2 'Email Pending'), saying whether the website
 * could be read. */
export function emailLabel(business: Pick<Business, "email" | "emailStatus" | "website" | "websiteError">): string {
  if (business.email) return business.email;
  if (business.emailStatus === "pending") return "Email Pending";
  if (business.emailStatus === "not_found") {
    if (!business.website) return "No email found: no website to read";
    return business.websiteError ? "No email found: the website could not be read" : "No email found on the website";
  }
  return "No email listed";
}

export type Filters = { hasEmail: boolean; category: string; verdict: string };
export const NO_FILTERS: Filters = { hasEmail: false, category: "", verdict: "" };
export const SORTS = { found: "Order found", name: "Name", email: "With email first", rating: "Rating" } as const;
export type Sort = keyof typeof SORTS;

export function filterBusinesses(list: Business[], filters: Filters): Business[] {
  return list.filter(
    (business) =>
      (!filters.hasEmail || !!business.email) &&
      (!filters.category || readableCategory(business.category) === filters.category) &&
      (!filters.verdict || (business.email && (business.emailVerdict ?? "unknown") === filters.verdict)),
  );
}

export function sortBusinesses(list: Business[], sort: Sort): Business[] {
  const sorted = [...list];
  if (sort === "name") sorted.sort((a, b) => a.name.localeCompare(b.name));
  if (sort === "email") sorted.sort((a, b) => Number(!a.email) - Number(!b.email));
  if (sort === "rating") sorted.sort((a, b) => (b.rating ?? -1) - (a.rating ?? -1));
  return sorted;
}

/** The categories present, for the filter. */
export function categoriesOf(list: Business[]): string[] {
  return [...new Set(list.map((business) => readableCategory(business.category)).filter((name): name is string => !!name))].sort();
}

/** The host of a website, as a short link text. */
export function websiteHost(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, "");
  } catch {
    return url;
  }
}
