import { describe, expect, it } from "vitest";
import { returnToasts, withoutReturnParams } from "./returnParams";
import { planLabel, usageLevel } from "./usage";

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

describe("usage meter plan", () => {
  it("names the plan in words, not by its code (issue 33.4)", () => {
    expect([planLabel("free_trial"), planLabel("premium"), planLabel("admin"), planLabel("none")]).toEqual(["Free trial", "Premium", "Administrator", "No plan"]);
  });
});
