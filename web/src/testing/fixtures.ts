/** Server data for unit tests: a complete record with the fields a test cares about overridden. */
import type { SentEmail } from "@outreach/client/api/types";

export const sentEmail = (overrides: Partial<SentEmail>): SentEmail => ({
  id: 1, campaignId: 1, businessId: 1, kind: "first", step: 0, toEmail: "a@b.example", subject: "Hi", body: "<p>Hi</p>", status: "sent",
  sentAt: "2026-11-24T10:00:01.000Z", createdAt: "2026-11-24T10:00:00.900Z", openedAt: null, repliedAt: null, deliveredAt: null, clickedAt: null, bouncedAt: null,
  bounceReason: null, spamReportedAt: null, unsubscribedAt: null, events: [], ...overrides,
});
