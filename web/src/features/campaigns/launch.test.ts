import { describe, expect, it } from "vitest";
import { count } from "../../lib/format";
import { launchCounts, launchError, progressSummary } from "./LaunchStep";
import { findingText, holdText, launchedText, progressState } from "./progressText";
import { OUTBOX, fallbackChoices, identityFromProfile, preferredSender, replyToError } from "./SenderStep";
import { testCampaignError } from "./TestCampaignDialog";

describe("launch rules", () => {
  it("launch needs a template, recipients and a campaign, in that order (A §5 Launch)", () => {
    expect(launchError(null, [], null)).toBe("Template Required");
    expect(launchError(1, [], null)).toBe("No Recipients");
    expect(launchError(1, [2], null)).toBe("Campaign Required");
    expect(launchError(1, [2], 3)).toBeNull();
  });

  it("the progress bar counts the emails to send, never the skipped ones", () => {
    // 186 chosen, 176 without an address: 10 to send, none sent yet (the bar used to read 176 of 186).
    expect(progressSummary({ sent: 0, failed: 0, uncertain: 0, skipped: 176, total: 186 })).toEqual({ toSend: 10, finished: 0, percent: 0 });
    expect(progressSummary({ sent: 7, failed: 2, uncertain: 1, skipped: 176, total: 186 })).toEqual({ toSend: 10, finished: 10, percent: 100 });
    expect(progressSummary({ sent: 0, failed: 0, uncertain: 0, skipped: 3, total: 3 }).percent).toBe(100);
  });

  it("says what a launch sends, skips, and does not send again (issue 33.3)", () => {
    expect(launchCounts({ recipients: 3, withEmail: 2, already: 0 })).toBe("2 emails will be sent; 1 business without an email address will be skipped.");
    expect(launchCounts({ recipients: 1, withEmail: 0, already: 1 })).toBe("0 emails will be sent; 1 business this campaign emailed already will not be emailed again.");
  });

  it("counts read as words", () => {
    expect(count(1, "business", "businesses")).toBe("1 business");
    expect(count(3, "business", "businesses")).toBe("3 businesses");
  });

});

describe("steps 5 and 6", () => {
  it("'Refresh from User Profile' needs a name in the profile (A §5 'Missing Information')", () => {
    expect(identityFromProfile({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.org" })).toEqual({ name: "Ada Lovelace", replyTo: "ada@example.org" });
    expect(identityFromProfile({ firstName: " Ada ", lastName: null, email: "ada@example.org" })?.name).toBe("Ada");
    expect(identityFromProfile({ firstName: null, lastName: "  ", email: "ada@example.org" })).toBeNull();
  });

  it("picks a sender in A §9's order when the user has not: default, Gmail, basic address, advanced, outbox", () => {
    const smtp = { id: 1, provider: "smtp" as const, isDefault: false };
    const basic = { id: 2, provider: "sendgrid-basic" as const, isDefault: false };
    const gmail = { id: 3, provider: "gmail" as const, isDefault: false };
    expect(preferredSender([smtp, basic, gmail])).toBe("3");
    expect(preferredSender([smtp, basic])).toBe("2");
    expect(preferredSender([smtp])).toBe("1");
    expect(preferredSender([gmail, { ...smtp, isDefault: true }])).toBe("1");
    expect(preferredSender([])).toBe(OUTBOX);
  });

  it("the reply address may be left empty, else it must be an address", () => {
    expect(replyToError("")).toBeNull();
    expect(replyToError(" sales@bakery.example ")).toBeNull();
    expect(replyToError("sales@")).toBe("Please enter a valid email address");
  });

  it("a test campaign needs an address and one to five businesses (A §5 Test campaign)", () => {
    expect(testCampaignError("me@", [1])).toBe("Please enter a valid test email address.");
    expect(testCampaignError("me@test.example", [])).toBe("Please select at least one business for testing.");
    expect(testCampaignError("me@test.example", [1, 2, 3, 4, 5, 6])).toBe("Please select a maximum of 5 businesses for testing.");
    expect(testCampaignError("me@test.example", [1, 2, 3, 4, 5])).toBeNull();
  });
});

describe("progressState", () => {
  const idle = { nextSendReason: null, nextFollowUpAt: null };
  it("tells waiting for the sending window from sending", () => {
    expect(progressState({ status: "active", nextSendAt: null, ...idle })).toBe("Sending");
    expect(progressState({ status: "active", nextSendAt: "2027-01-15T14:00:00.000Z", ...idle, nextSendReason: "window" })).toBe("Waiting");
    expect(progressState({ status: "paused", nextSendAt: null, ...idle })).toBe("Paused");
    expect(progressState({ status: "completed", nextSendAt: null, ...idle })).toBe("Completed");
  });

  it("says a sender's pace is sending, and follow-ups are scheduled once the first emails have gone (issue 83.3, 83.5)", () => {
    expect(progressState({ status: "active", nextSendAt: "2027-01-15T14:00:00.000Z", ...idle, nextSendReason: "pace" })).toBe("Sending at the sender's pace");
    const followUp = "2027-01-17T09:00:00.000Z";
    expect(progressState({ status: "active", nextSendAt: null, nextSendReason: null, nextFollowUpAt: followUp, progress: { queued: 0, sending: 0 } })).toBe(
      `Follow-ups scheduled: next on ${new Date(followUp).toLocaleString()}`,
    );
    expect(progressState({ status: "active", nextSendAt: null, nextSendReason: null, nextFollowUpAt: followUp, progress: { queued: 2, sending: 0 } })).toBe("Sending");
  });
});

describe("times said in the user's own time (issue 83.1, 83.3, 83.4)", () => {
  const at = "2027-01-15T14:00:00.000Z";
  const local = new Date(at).toLocaleString();
  it("names what holds the next email", () => {
    expect(holdText({ status: "active", nextSendAt: at, nextSendReason: "window" })).toBe(`Waiting for the sending window (in each recipient's local time): the next emails go out ${local}.`);
    expect(holdText({ status: "active", nextSendAt: at, nextSendReason: "pace" })).toContain("pace");
    expect(holdText({ status: "active", nextSendAt: at, nextSendReason: "daily_cap" })).toContain("cap for today");
    expect(holdText({ status: "active", nextSendAt: at, nextSendReason: "monthly_quota" })).toContain("monthly email limit");
    expect(holdText({ status: "active", nextSendAt: null, nextSendReason: null })).toBeNull();
  });

  it("shows a finding's and a launch's time locally, never as UTC text", () => {
    expect(findingText({ message: "The sending window is closed.", at })).toBe(`The sending window is closed. It opens ${local} (your time).`);
    expect(findingText({ message: "No postal address.", at: null })).toBe("No postal address.");
    expect(launchedText({ message: "3 emails queued.", windowOpensAt: at })).toBe(`3 emails queued. The sending window opens ${local} (your time).`);
    expect(launchedText({ message: "3 emails are being sent.", windowOpensAt: null })).not.toMatch(/T\d\d:/);
  });
});

describe("step 5 without an active sender (A §9, issue 83.18)", () => {
  it("offers the user's Gmail, then their own SendGrid sender, each through Email Settings", () => {
    const revoked = { provider: "gmail" as const, isActive: false, emailAddress: "ada@gmail.com" };
    const branded = { provider: "sendgrid-custom" as const, isActive: false, emailAddress: "hello@bakery.example" };
    expect(fallbackChoices([branded, revoked], "ada@example.org").map((choice) => choice.value)).toEqual(["setup:gmail", "setup:sendgrid"]);
    expect(fallbackChoices([branded, revoked], "ada@example.org")[0].label).toBe("Gmail ada@gmail.com (connect it in Email Settings to send)");
    expect(fallbackChoices([], "Grace@Gmail.com")).toEqual([{ value: "setup:gmail", label: "Gmail Grace@Gmail.com (connect it in Email Settings to send)" }]);
    expect(fallbackChoices([], "ada@example.org")).toEqual([]);
  });
});
