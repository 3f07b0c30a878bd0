/** Server data for unit tests: a complete record with the fields a test cares about overridden. */
import type { SentEmail } from "../lib/serverTypes";

export const sentEmail = (overrides: Partial<SentEmail>): SentEmail => ({
  id: 1, campaignId: 1, businessId: 1, step: 0, toEmail: "a@b.example", subject: "Hi", body: "<p>Hi</p>", status: "sent",
  sentAt: 1_000, createdAt: 900, openedAt: null, repliedAt: null, deliveredAt: null, clickedAt: null, bouncedAt: null,
  bounceReason: null, spamReportedAt: null, unsubscribedAt: null, events: [], ...overrides,
});
