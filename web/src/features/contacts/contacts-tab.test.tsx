import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { createQueryClient } from "@outreach/client/queryClient";
import { CONTACTS_KEY, STATS_KEY, type Contact } from "./api";
import { ContactsTab } from "./ContactsTab";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it("badges an interested contact once (issue 83.16: 'Interested Interested')", () => {
  // Nothing is fetched: the lists are in the cache, and a refresh would never answer.
  vi.stubGlobal("fetch", () => new Promise(() => {}));
  const client = createQueryClient();
  const contact = { email: "owner@cafe.example", name: "Blue Cafe", sent: 1, lastSentAt: null, status: "Replied", interest: "interested" } as Contact;
  client.setQueryData([CONTACTS_KEY], [contact]);
  client.setQueryData([STATS_KEY], null);
  render(
    <QueryClientProvider client={client}>
      <ContactsTab />
    </QueryClientProvider>,
  );
  const row = screen.getByRole("row", { name: /Blue Cafe/ });
  expect(Array.from(row.querySelectorAll("td:nth-child(3) span"), (badge) => badge.textContent)).toEqual(["Replied", "Interested"]);
});
