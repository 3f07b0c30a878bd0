import { describe, expect, it } from "vitest";
import { canMarkOpened, cardMetrics, emailCount, followUps, isHtmlBody, statusLabel, type SentEmail, type Summary } from "./api";
import { filterContacts, historyTimeline, type Contact, type ContactHistory } from "../contacts/api";

const summary = (overrides: Partial<Summary>): Summary => ({
  totalEmails: 0, queued: 0, totalSent: 0, failed: 0, skipped: 0, delivered: 0, deliveryRate: 0, opened: 0, openRate: 0,
  clicked: 0, clickRate: 0, replied: 0, replyRate: 0, bounced: 0, bounceRate: 0, spamReported: 0, unsubscribed: 0,
  totalOpens: 0, machineOpens: 0, totalClicks: 0, ...overrides,
});

const email = (overrides: Partial<SentEmail>): SentEmail => ({
  id: 1, campaignId: 1, businessId: 1, step: 0, toEmail: "a@b.example", subject: "Hi", body: "<p>Hi</p>", status: "sent",
  sentAt: 1_000, createdAt: 900, openedAt: null, repliedAt: null, deliveredAt: null, clickedAt: null, bouncedAt: null,
  bounceReason: null, spamReportedAt: null, unsubscribedAt: null, events: [], ...overrides,
});

describe("campaign cards (A §9)", () => {
  it("show sent, opened and replies, with failed beside sent only above zero", () => {
    expect(cardMetrics(summary({ totalSent: 10, opened: 4, replied: 1 }))).toEqual([
      { label: "Sent", value: "10" },
      { label: "Opened", value: "4" },
      { label: "Replies", value: "1" },
    ]);
    expect(cardMetrics(summary({ totalSent: 10, failed: 2 }))[0].value).toBe("10 (2 failed)");
  });

  it("capitalise campaign statuses (B §3)", () => {
    expect(statusLabel("active")).toBe("Active");
    expect(statusLabel("template_selected")).toBe("Template Selected");
  });
});

describe("campaign analytics page (B §2.10)", () => {
  it("offers Mark Opened only for a sent email without an open", () => {
    expect(canMarkOpened({ status: "sent", openedAt: null })).toBe(true);
    expect(canMarkOpened({ status: "sent", openedAt: 5 })).toBe(false);
    expect(canMarkOpened({ status: "delivered", openedAt: null })).toBe(false);
    expect(canMarkOpened({ status: "failed", openedAt: null })).toBe(false);
  });

  it("renders a body as HTML only when it holds an html tag", () => {
    expect(isHtmlBody("<p>Hello</p>")).toBe(true);
    expect(isHtmlBody('<a href="x">x</a>')).toBe(true);
    expect(isHtmlBody("Price < 5 and > 2")).toBe(false);
    expect(isHtmlBody("plain text")).toBe(false);
    expect(isHtmlBody(null)).toBe(false);
  });

  it("counts emails in words", () => {
    expect([emailCount(0), emailCount(1), emailCount(2)]).toEqual(["0 emails", "1 email", "2 emails"]);
  });

  it("lists follow-ups as the emails after the first step", () => {
    expect(followUps([email({ id: 1, step: 0 }), email({ id: 2, step: 1 }), email({ id: 3, step: 2 })]).map((e) => e.id)).toEqual([2, 3]);
  });
});

const contact = (overrides: Partial<Contact>): Contact => ({
  email: "owner@cafe.example", name: "Cafe", phone: null, address: null, website: null, category: "cafe", messages: 1,
  sent: 1, lastSentAt: 1, deliveredAt: null, openedAt: null, clickedAt: null, repliedAt: null, bouncedAt: null,
  spamReportedAt: null, unsubscribedAt: null, lastActivityAt: 1, status: "Sent", ...overrides,
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
          sentAt: 1_000,
          events: [
            { eventType: "open", occurredAt: 1_005, url: null, machine: true, manual: false },
            { eventType: "click", occurredAt: 2_000, url: "https://bakery.example", machine: false, manual: false },
            { eventType: "reply", occurredAt: 3_000, url: null, machine: false, manual: false },
          ],
        }),
      ],
      received: [
        { id: 1, messageId: 7, kind: "reply", fromEmail: "owner@cafe.example", subject: "Re: Hi", body: "Yes please", detail: null, source: "outbox", receivedAt: 3_000 },
      ],
      notes: [],
    };
    expect(historyTimeline(history).map((entry) => entry.title)).toEqual([
      "Sent: Hi",
      "Opened (by a machine: image proxy or scanner)",
      "Clicked a link",
      "Reply received: Re: Hi",
    ]);
  });
});
