import { describe, expect, it } from "vitest";
import { statusLabel } from "../../lib/format";
import { deliveryDetail, machineOpensDetail } from "./CampaignDetailsPage";
import { bouncedText, canMarkOpened, cardMetrics, emailCount, isHtmlBody, notSentNote, type Summary } from "./api";

const summary = (overrides: Partial<Summary>): Summary => ({
  totalEmails: 0, queued: 0, totalSent: 0, failed: 0, skipped: 0, delivered: 0, deliveryRate: 0, opened: 0, openRate: 0,
  clicked: 0, clickRate: 0, replied: 0, replyRate: 0, bounced: 0, bounceRate: 0, spamReported: 0, unsubscribed: 0,
  totalOpens: 0, machineOpens: 0, totalClicks: 0, meetingsBooked: 0, ...overrides,
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
    expect(canMarkOpened({ status: "sent", openedAt: "2026-11-24T10:00:00.000Z" })).toBe(false);
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
});

describe("delivery tile", () => {
  it("says deliveries are not reported rather than 0% when no sender reported one", () => {
    expect(deliveryDetail(0, 0)).toBe("Not reported: only SendGrid senders report deliveries");
    expect(deliveryDetail(3, 75)).toBe("75% delivery rate");
  });
});

describe("total opens tile", () => {
  it("counts machine opens left out in words, one or many (issue 83.16)", () => {
    expect(machineOpensDetail(0)).toBeUndefined();
    expect(machineOpensDetail(1)).toBe("1 machine open not counted");
    expect(machineOpensDetail(3)).toBe("3 machine opens not counted");
  });
});

describe("why an email did not go or came back (issue 83.14: the details page and the analytics dialog say it alike)", () => {
  it("says an unsent email is in doubt, was not sent and why, or still waits", () => {
    expect(notSentNote({ uncertain: true, notSentReason: "its worker stopped while handing it to the server" })).toBe("Uncertain: its worker stopped while handing it to the server");
    expect(notSentNote({ uncertain: true, notSentReason: null })).toBe("Uncertain");
    expect(notSentNote({ uncertain: false, notSentReason: "No email address" })).toBe("Not sent: No email address");
    expect(notSentNote({ uncertain: false, notSentReason: null })).toBe("Waiting to be sent");
  });

  it("gives a bounce its time and reason, else 'Unknown reason' (B §2.11)", () => {
    const at = "2026-11-24T10:00:00.000Z";
    expect(bouncedText({ bouncedAt: at, bounceReason: "550 5.1.1 mailbox unknown" })).toBe(`${new Date(at).toLocaleString()} (550 5.1.1 mailbox unknown)`);
    expect(bouncedText({ bouncedAt: null, bounceReason: null })).toBe("— (Unknown reason)");
  });
});
