import { describe, expect, it } from "vitest";
import { count } from "../../lib/format";
import { launchError, progressSummary } from "./LaunchStep";

describe("launch rules", () => {
  it("launch needs a template, recipients and a campaign, in that order (A §5 Launch)", () => {
    expect(launchError(null, [], null)).toBe("Template Required");
    expect(launchError(1, [], null)).toBe("No Recipients");
    expect(launchError(1, [2], null)).toBe("Campaign Required");
    expect(launchError(1, [2], 3)).toBeNull();
  });

  it("the progress bar counts the emails to send, never the skipped ones", () => {
    // 186 chosen, 176 without an address: 10 to send, none sent yet (the bar used to read 176 of 186).
    expect(progressSummary({ sent: 0, failed: 0, skipped: 176, total: 186 })).toEqual({ toSend: 10, finished: 0, percent: 0 });
    expect(progressSummary({ sent: 8, failed: 2, skipped: 176, total: 186 })).toEqual({ toSend: 10, finished: 10, percent: 100 });
    expect(progressSummary({ sent: 0, failed: 0, skipped: 3, total: 3 }).percent).toBe(100);
  });

  it("counts read as words", () => {
    expect(count(1, "business", "businesses")).toBe("1 business");
    expect(count(3, "business", "businesses")).toBe("3 businesses");
  });

});
