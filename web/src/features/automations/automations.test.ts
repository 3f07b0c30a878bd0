import { describe, expect, it } from "vitest";
import type { RunResult } from "@outreach/client/api/types";
import { sentText } from "../../lib/format";
import { NEW_FORM, cardRefetchMs, nextRunText, readForm, runToast, testError } from "./rules";

const valid = { ...NEW_FORM, campaignName: "Daily cafés", businessType: "cafe", geographicArea: "Helsinki", emailTemplateId: "3" };

describe("automation forms", () => {
  it("name the first missing field in the spec's words and keep the defaults", () => {
    expect(readForm(NEW_FORM)).toEqual({ error: "Campaign name is required" });
    expect(readForm({ ...valid, businessType: " " })).toEqual({ error: "Business type is required" });
    expect(readForm({ ...valid, geographicArea: "" })).toEqual({ error: "Geographic area is required" });
    expect(readForm({ ...valid, emailTemplateId: "" })).toEqual({ error: "Please select an email template" });
    expect(readForm({ ...valid, maxBusinessesPerDay: "51" })).toEqual({ error: "Businesses a day must be between 1 and 50" });
    expect(readForm({ ...valid, maxTotalEmails: "0" })).toEqual({ error: "Total emails must be between 1 and 1000" });
    expect(readForm({ ...valid, campaignDurationMinutes: "10081" })).toEqual({ error: "Duration must be between 1 and 10080 minutes" });
    expect(readForm(valid)).toEqual({
      body: { campaignName: "Daily cafés", businessType: "cafe", geographicArea: "Helsinki", radius: 25, maxBusinessesPerDay: 10, emailTemplateId: 3, maxTotalEmails: null, campaignDurationMinutes: null, isActive: true },
    });
  });

  it("checks the test form's limits", () => {
    const test = { testEmail: "me@test.example", quantity: 1, confidenceThreshold: 0.85, autoReplyDelayMinutes: 0, autoReplyMaxPerDay: 20, templateChosen: true };
    expect(testError(test)).toBeNull();
    expect(testError({ ...test, quantity: 6 })).toBe("Quantity must be between 1 and 5");
    expect(testError({ ...test, testEmail: "me" })).toBe("Please enter a valid email address");
    expect(testError({ ...test, templateChosen: false })).toBe("Please select an email template");
  });

  it("words a run's result", () => {
    const result: RunResult = { runId: 1, status: "completed", emailsSent: 2, emailsWaiting: 0, emailsFailed: 0, businessesFound: 40, message: null, emailsReport: [{ businessName: "Cafe A", email: "a@x.example", status: "sent" }] };
    expect(runToast(result)).toEqual({ title: "Automation run complete", description: "2 sent, 0 failed: Cafe A (sent)" });
    const waiting: RunResult = { ...result, status: "running", emailsSent: 1, emailsWaiting: 1 };
    expect(runToast(waiting).description).toBe("1 sent, 1 waiting, 0 failed so far. See Automation Reports for the rest.");
    expect(sentText(3, 0)).toBe("3 sent");
    expect(runToast({ ...result, status: "ended", message: "Ended: its 7 emails are sent" }).description).toBe("Ended: its 7 emails are sent");
  });
});

describe("the card's next run and its refresh (issue 83.11, 83.17)", () => {
  const now = Date.parse("2027-01-15T10:00:00.000Z");
  it("says a run due now starts within a minute, a later one at its time", () => {
    expect(nextRunText("2027-01-15T10:00:00.000Z", now)).toBe("within a minute");
    expect(nextRunText("2027-01-16T00:00:00.000Z", now)).toBe(new Date("2027-01-16T00:00:00.000Z").toLocaleString());
    expect(nextRunText(null, now)).toBe("none");
  });

  it("follows waiting emails, and stops when none wait", () => {
    expect(cardRefetchMs([{ emailsWaiting: 0 }, { emailsWaiting: 2 }])).toBe(5_000);
    expect(cardRefetchMs([{ emailsWaiting: 0 }])).toBe(false);
    expect(cardRefetchMs(null)).toBe(false);
  });
});
