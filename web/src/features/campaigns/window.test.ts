import { describe, expect, it } from "vitest";
import { fromTimeInput, timeZones, toTimeInput, windowSummary } from "./window";

const window = (days: string[], start = "08:00", end = "18:00") => ({ days, start, end, timeZone: "UTC" });

describe("the sending window form", () => {
  it("summarises runs of days and the hours", () => {
    expect(windowSummary(window(["mon", "tue", "wed", "thu", "fri"]))).toBe("Sends Mon-Fri, 08:00-18:00.");
    expect(windowSummary(window(["mon", "wed", "sat", "sun"]))).toBe("Sends Mon, Wed, Sat, Sun, 08:00-18:00.");
    expect(windowSummary(window(["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "00:00", "24:00"))).toBe("Sends every day, at any hour.");
    expect(windowSummary(window([]))).toBe("Choose at least one day to send on.");
  });

  it("reads midnight as the end of the day only at the end", () => {
    expect(toTimeInput("24:00")).toBe("00:00");
    expect(fromTimeInput("00:00", true)).toBe("24:00");
    expect(fromTimeInput("00:00", false)).toBe("00:00");
    expect(fromTimeInput("09:30", true)).toBe("09:30");
  });

  it("always offers the campaign's own zone", () => {
    expect(timeZones("UTC")).toContain("UTC");
    expect(timeZones("Mars/Olympus")[0]).toBe("Mars/Olympus");
  });
});
