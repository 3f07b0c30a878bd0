import { describe, expect, it } from "vitest";
import { sentEmail as email } from "../../testing/fixtures";
import { filterContacts, historyTimeline, type Contact, type ContactHistory } from "./api";

const contact = (overrides: Partial<Contact>): Contact => ({
  email: "owner@cafe.example", name: "Cafe", phone: null, address: null, website: null, category: "cafe", messages: 1,
  sent: 1, lastSentAt: "2026-11-24T10:00:00.001Z", deliveredAt: null, openedAt: null, clickedAt: null, repliedAt: null, bouncedAt: null,
  spamReportedAt: null, unsubscribedAt: null, lastActivityAt: "2026-11-24T10:00:00.001Z", status: "Sent", ...overrides,
});

describe("contacts (B §2.7)", () => {
  const list = [
    contact({ email: "owner@cafe.example", name: "Blue Cafe", status: "Replied" }),
    contact({ email: "info@bakery.example", name: "Rye Bakery", category: "bakery", status: "Bounced" }),
  ];

  it("search name, email and category, and filter by badge", () => {
    expect(filterContacts(list, "rye", "all").map((c) => c.email)).toEqual(["info@bakery.example"]);
    expect(filterContacts(list, "CAFE.example", "all").map((c) => c.email)).toEqual(["owner@cafe.example"]);
    expect(filterContacts(list, "bakery", "all")).toHaveLength(1);
    expect(filterContacts(list, "", "Replied").map((c) => c.name)).toEqual(["Blue Cafe"]);
    expect(filterContacts(list, "rye", "Replied")).toEqual([]);
  });

  it("tell a contact's history in time order, a received reply once", () => {
    const history: ContactHistory = {
      email: "owner@cafe.example",
      messages: [
        email({
          id: 7,
          sentAt: "2026-11-24T10:00:01.000Z",
          events: [
            { eventType: "open", occurredAt: "2026-11-24T10:00:01.005Z", url: null, machine: true, manual: false },
            { eventType: "click", occurredAt: "2026-11-24T10:00:02.000Z", url: "https://bakery.example", machine: false, manual: false },
            { eventType: "reply", occurredAt: "2026-11-24T10:00:03.000Z", url: null, machine: false, manual: false },
          ],
        }),
        email({ id: 8, kind: "answer", step: 1, subject: "Re: Hi", sentAt: "2026-11-24T10:00:04.000Z" }),
        email({ id: 9, kind: "follow_up", step: 2, subject: "Still fresh", sentAt: null, status: "skipped", createdAt: "2026-11-24T10:00:05.000Z" }),
      ],
      received: [
        { id: 1, messageId: 7, kind: "reply", fromEmail: "owner@cafe.example", subject: "Re: Hi", body: "Yes please", detail: null, source: "outbox", receivedAt: "2026-11-24T10:00:03.000Z" },
      ],
      notes: [],
    };
    expect(historyTimeline(history).map((entry) => entry.title)).toEqual([
      "Email sent: Hi",
      "Opened (by a machine: image proxy or scanner)",
      "Clicked a link",
      "Reply received: Re: Hi",
      "Answer to a reply sent: Re: Hi",
      "Follow-up #2 not sent (skipped): Still fresh",
    ]);
  });
});
