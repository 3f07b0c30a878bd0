import { describe, expect, it } from "vitest";
import { differentEmailProblem, EMPTY_SMTP, gmailAddressProblem, gmailSetupFailure, googleAccountKind, isBasicAddress, repliesNote, smtpFormErrors, smtpPayload, validUsername } from "./rules";

describe("sending rules", () => {
  it("the SMTP form names each problem by its field before the server is asked", () => {
    const form = { ...EMPTY_SMTP, emailSendFromName: "Ada", emailSendFrom: "ada@bakery.example", smtpHost: "smtp.bakery.example" };
    expect(smtpFormErrors(form)).toEqual({});
    expect(smtpFormErrors({ ...form, emailSendFromName: " ", smtpPort: "70000" })).toEqual({
      emailSendFromName: "Sender name is required",
      smtpPort: "SMTP port must be between 1 and 65535",
    });
    expect(smtpFormErrors({ ...form, emailSendFrom: "ada", emailReplyTo: "replies@" })).toEqual({
      emailSendFrom: "Please enter a valid email address",
      emailReplyTo: "Please enter a valid email address",
    });
    expect(smtpFormErrors({ ...form, smtpHost: "" })).toEqual({ smtpHost: "SMTP host is required" });
    expect(smtpFormErrors({ ...form, imapHost: "imap.bakery.example", imapPort: "0" })).toEqual({
      imapPort: "IMAP port must be between 1 and 65535",
      imapPassword: "IMAP password is required",
    });
  });

  it("usernames are 3 to 30 letters, digits, hyphens and underscores", () => {
    expect(validUsername("ada_baker-1")).toBe(true);
    expect(validUsername("ab")).toBe(false);
    expect(validUsername("a".repeat(31))).toBe(false);
    expect(validUsername("ada.baker")).toBe(false);
  });

  it("the different Gmail form asks for a Gmail address with the spec's texts", () => {
    expect(gmailAddressProblem(" ")).toEqual({ title: "Email Required", description: "Please enter a Gmail address" });
    expect(gmailAddressProblem("ada@bakery.example")).toEqual({ title: "Gmail Address Required", description: "Please enter a valid Gmail address (ending with @gmail.com)" });
    expect(gmailAddressProblem("Ada.Work@Gmail.com")).toBeNull();
    expect(gmailAddressProblem("ada@googlemail.com")).toBeNull();
    expect(differentEmailProblem("ada")).toEqual({ title: "Invalid Email", description: "Please enter a valid email address" });
    expect(differentEmailProblem("ada@x")).toBeNull();
    expect(googleAccountKind("ada@gmail.com")).toBe("Gmail");
    expect(googleAccountKind("ada@bakery.example")).toBe("Workspace");
  });

  it("a basic address is one on the instance's sending domain", () => {
    expect(isBasicAddress("ada@hello.outreach.example", "hello.outreach.example")).toBe(true);
    expect(isBasicAddress("ada@outreach.example", "hello.outreach.example")).toBe(false);
    expect(isBasicAddress(null, "hello.outreach.example")).toBe(false);
  });
});

describe("reply detection notes", () => {
  it("say where replies to each sender are read from, or that they are not", () => {
    expect(repliesNote({ provider: "outbox" })).toBeNull();
    expect(repliesNote({ provider: "gmail" })).toContain("not detected");
    expect(repliesNote({ provider: "gmail", gmailRead: true })).toBe("Replies are read from this Gmail inbox every 5 minutes.");
    expect(repliesNote({ provider: "smtp", imapHost: null })).toBe("Replies to this sender are not detected: add its IMAP mailbox to read them.");
    expect(repliesNote({ provider: "smtp", imapHost: "imap.bakery.example" })).toBe("Replies are read from imap.bakery.example every 5 minutes.");
    expect(repliesNote({ provider: "smtp", imapHost: "imap.bakery.example", repliesError: "the IMAP server refused the login: no response" })).toBe(
      "Replies could not be read from imap.bakery.example: the IMAP server refused the login: no response",
    );
  });

  it("send IMAP settings only with a host, and ask for the password then", () => {
    const form = { ...EMPTY_SMTP, emailSendFromName: "Ada", emailSendFrom: "ada@bakery.example", smtpHost: "smtp.bakery.example" };
    expect(smtpPayload(form).imapHost).toBeNull();
    expect(smtpFormErrors({ ...form, imapHost: "imap.bakery.example" })).toEqual({ imapPassword: "IMAP password is required" });
    expect(smtpFormErrors({ ...form, imapHost: "imap.bakery.example", imapPassword: "x", imapPort: "0" })).toEqual({ imapPort: "IMAP port must be between 1 and 65535" });
    const payload = smtpPayload({ ...form, imapHost: " imap.bakery.example ", imapPassword: "x" });
    expect([payload.imapHost, payload.imapPort, payload.imapSecurity, payload.imapUsername]).toEqual(["imap.bakery.example", 993, "tls", null]);
  });
});

it("words a failed Gmail setup as A §8 does", () => {
  expect(gmailSetupFailure(new Error("422: {}"), false)).toEqual({ title: "Configuration Failed", description: "Failed to save email configuration. Please try again." });
  expect(gmailSetupFailure(new Error('422: {"message":"Please enter a Gmail address"}'), false).description).toBe("Please enter a Gmail address");
  expect(gmailSetupFailure(new Error("500: oops"), false)).toEqual({ title: "Setup Failed", description: "Failed to configure Gmail integration. Please try again." });
  expect(gmailSetupFailure(new Error("502: {}"), true)).toEqual({ title: "OAuth Setup Error", description: "Failed to prepare OAuth flow. Please try again." });
  expect(gmailSetupFailure(new Error("Failed to fetch"), true)).toEqual({ title: "OAuth Setup Error", description: "Please try again." });
});
