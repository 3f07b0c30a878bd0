import { beforeEach, describe, expect, it } from "vitest";
import { STORAGE_KEYS, aiEducationKeys, applyLastUserRule, clearCampaignData, readSelection, writeSelection } from "./storage";
import { DEFAULT_TAB, TABS, initialTab, normalizeTab, tabTitle } from "./tabs";
import { displayName } from "./auth";
import { automationOpenRateText, percentText } from "./format";

beforeEach(() => localStorage.clear());

describe("active tab", () => {
  it("labels the first two tabs as A's steps, and titles pages without them", () => {
    expect(TABS.slice(0, 2).map((item) => item.label)).toEqual(["STEP 1: Email Settings", "STEP 2: Build Campaign"]);
    expect(tabTitle("campaign")).toBe("Build Campaign");
    expect(tabTitle("responses")).toBe("Responses");
  });

  it("comes from the URL, then the saved tab, then the default", () => {
    localStorage.setItem(STORAGE_KEYS.activeTab, "email-templates");
    expect(initialTab("?tab=your-campaigns")).toBe("your-campaigns");
    expect(initialTab("")).toBe("email-templates");
    expect(initialTab("?tab=nonsense")).toBe("email-templates");
    localStorage.clear();
    expect(initialTab("")).toBe(DEFAULT_TAB);
    expect(DEFAULT_TAB).toBe("campaign");
  });
  it("accepts the other reading's ids and the Gmail result page's link", () => {
    expect(normalizeTab("email")).toBe("email-settings");
    expect(normalizeTab("analytics")).toBe("your-campaigns");
    expect(normalizeTab("campaigns")).toBe("campaign");
    expect(normalizeTab(null)).toBeNull();
  });
});

describe("local storage", () => {
  function seedCampaign() {
    localStorage.setItem(STORAGE_KEYS.currentCampaignId, "12");
    localStorage.setItem(STORAGE_KEYS.campaignName, "Cafés");
    localStorage.setItem(STORAGE_KEYS.selectedBusinesses, "[1,2]");
    localStorage.setItem(STORAGE_KEYS.campaignEmailSettings, "{}");
    localStorage.setItem(aiEducationKeys(12).text, "About us");
    localStorage.setItem(aiEducationKeys(12).files, "[]");
    localStorage.setItem(STORAGE_KEYS.activeTab, "email-templates");
  }

  it("keeps everything for the same user and records the first one", () => {
    seedCampaign();
    expect(applyLastUserRule(5)).toBe(false);
    expect(applyLastUserRule(5)).toBe(false);
    expect(localStorage.getItem(STORAGE_KEYS.currentCampaignId)).toBe("12");
    expect(localStorage.getItem(STORAGE_KEYS.lastUserId)).toBe("5");
  });

  it("clears campaign data and the tab when another user signs in", () => {
    localStorage.setItem(STORAGE_KEYS.lastUserId, "5");
    seedCampaign();
    localStorage.setItem("unrelated", "stays");
    expect(applyLastUserRule(6)).toBe(true);
    expect(localStorage.length).toBe(2);
    expect(localStorage.getItem(STORAGE_KEYS.lastUserId)).toBe("6");
    expect(localStorage.getItem("unrelated")).toBe("stays");
  });

  it("clearCampaignData leaves the tab alone", () => {
    seedCampaign();
    clearCampaignData();
    expect(localStorage.getItem(STORAGE_KEYS.activeTab)).toBe("email-templates");
    expect(localStorage.getItem(aiEducationKeys(12).text)).toBeNull();
  });
});

it("the header names the user by first name, else email, else 'User'", () => {
  expect(displayName({ firstName: "Ada", email: "ada@example.org" })).toBe("Ada");
  expect(displayName({ firstName: " ", email: "ada@example.org" })).toBe("ada@example.org");
  expect(displayName(null)).toBe("User");
});

describe("step 2's ticks (issue 33.5)", () => {
  it("survive a reload for their own campaign only", () => {
    expect(readSelection(7)).toBeNull();
    writeSelection(7, [3, 5]);
    expect(readSelection(7)).toEqual([3, 5]);
    expect(readSelection(8)).toBeNull();
    localStorage.setItem(STORAGE_KEYS.selectedBusinesses, "[1,2]");
    expect(readSelection(7)).toBeNull();
  });
});

describe("percentages (issue 83.16: one formatter, so a figure looks the same wherever it shows)", () => {
  it("are whole numbers (B §9), with one decimal where the spec asks (A §9's usage meter)", () => {
    expect([percentText(0), percentText(25), percentText(33.4), percentText(66.5)]).toEqual(["0%", "25%", "33%", "67%"]);
    expect([percentText(0, 1), percentText(79, 1), percentText(100 / 3, 1)]).toEqual(["0.0%", "79.0%", "33.3%"]);
  });
  it("give an automation's open rate, a fraction, with one decimal (B §9)", () => {
    expect([automationOpenRateText(0.4567), automationOpenRateText(0)]).toEqual(["45.7%", "0.0%"]);
  });
});
