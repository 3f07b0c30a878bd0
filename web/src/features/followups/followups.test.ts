import { describe, expect, it } from "vitest";
import { followUpTotals } from "./FollowUpAnalyticsPage";
import { pendingToday } from "./FollowUpManagerPage";

describe("follow-up pages", () => {
  it("count what is scheduled by the end of today as Pending Today", () => {
    const now = new Date(2026, 10, 25, 9, 0);
    const items = [
      { scheduledFor: new Date(2026, 10, 24, 12, 0).toISOString() },
      { scheduledFor: new Date(2026, 10, 25, 22, 0).toISOString() },
      { scheduledFor: new Date(2026, 10, 26, 8, 0).toISOString() },
    ];
    expect(pendingToday(items, now)).toBe(2);
    expect(pendingToday([], now)).toBe(0);
  });

  it("round the open rate to a whole percent (B §2.13)", () => {
    expect(followUpTotals([{ opened: true, clicked: true }, { opened: false, clicked: false }, { opened: false, clicked: false }])).toEqual({ sent: 3, opened: 1, clicked: 1, openRate: 33 });
    expect(followUpTotals([])).toEqual({ sent: 0, opened: 0, clicked: 0, openRate: 0 });
  });
});
