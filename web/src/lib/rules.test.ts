import { beforeEach, describe, expect, it } from "vitest";
import { STORAGE_KEYS, aiEducationKeys, applyLastUserRule, clearCampaignData } from "./storage";
import { DEFAULT_TAB, initialTab, normalizeTab } from "./tabs";
import { nextGateState } from "../features/auth/gate";
import { returnToasts, withoutReturnParams } from "../features/dashboard/returnParams";
import { usageLevel } from "../features/dashboard/usage";
import { displayName } from "./auth";

beforeEach(() => localStorage.clear());

describe("active tab", () => {
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

describe("account gate", () => {
  const checking = { kind: "checking" } as const;
  it("becomes active with a user who has access, inactive otherwise", () => {
    expect(nextGateState(checking, { type: "loaded", hasUser: true, hasAccess: true })).toEqual({ kind: "active" });
    expect(nextGateState(checking, { type: "loaded", hasUser: false, hasAccess: false })).toEqual({ kind: "inactive", message: "Account inactive" });
    expect(nextGateState(checking, { type: "loaded", hasUser: true, hasAccess: false }).kind).toBe("inactive");
  });
  it("goes inactive on a 403 event with its message, and nothing leaves inactive", () => {
    const inactive = nextGateState({ kind: "active" }, { type: "statusError", status: 403, message: "Subscription expired" });
    expect(inactive).toEqual({ kind: "inactive", message: "Subscription expired" });
    expect(nextGateState({ kind: "active" }, { type: "statusError", status: 500 })).toEqual({ kind: "active" });
    expect(nextGateState(inactive, { type: "loaded", hasUser: true, hasAccess: true })).toBe(inactive);
    expect(nextGateState({ kind: "active" }, { type: "statusError", status: 403 })).toEqual({ kind: "inactive", message: "Account inactive" });
  });
});

describe("dashboard return parameters", () => {
  it("turns gmail, error and email into toasts with the spec's texts", () => {
    expect(returnToasts("?gmail=success&email=ada@gmail.com")[0]).toMatchObject({ title: "Gmail Connection Successful" });
    expect(returnToasts("?error=no_auth_code")[0]).toMatchObject({ title: "Gmail Connection Failed", description: "No authorization code received from Google" });
    expect(returnToasts("?error=callback_failed")[0].description).toBe("Gmail OAuth callback processing failed");
    expect(returnToasts("?error=weird")[0].description).toBe("Gmail connection error: weird");
    expect(returnToasts("?tab=campaign")).toEqual([]);
  });
  it("removes only those parameters from the URL", () => {
    expect(withoutReturnParams("http://h/dashboard?tab=email&gmail=success&email=a%40b.c&error=x#top")).toBe("/dashboard?tab=email#top");
  });
});

describe("usage meter", () => {
  it("warns from 80%, is exceeded from 100%, shows one decimal and caps the bar", () => {
    expect(usageLevel({ count: 79, limit: 100 })).toEqual({ percentText: "79.0%", barPercent: 79, level: "ok" });
    expect(usageLevel({ count: 400, limit: 500 }).level).toBe("warning");
    expect(usageLevel({ count: 1, limit: 3 }).percentText).toBe("33.3%");
    expect(usageLevel({ count: 150, limit: 100 })).toEqual({ percentText: "150.0%", barPercent: 100, level: "exceeded" });
    expect(usageLevel({ count: 0, limit: 0 }).level).toBe("ok");
  });
});

it("the header names the user by first name, else email, else 'User'", () => {
  expect(displayName({ firstName: "Ada", email: "ada@example.org" })).toBe("Ada");
  expect(displayName({ firstName: " ", email: "ada@example.org" })).toBe("ada@example.org");
  expect(displayName(null)).toBe("User");
});
