import { describe, expect, it } from "vitest";
import { differentEmailProblem, EMPTY_SMTP, gmailAddressProblem, googleAccountKind, isBasicAddress, smtpFormError, validUsername } from "./rules";

describe("sending rules", () => {
  it("the SMTP form names its first problem before the server is asked", () => {
    const form = { ...EMPTY_SMTP, emailSendFromName: "Ada", emailSendFrom: "ada@bakery.example", smtpHost: "smtp.bakery.example" };
    expect(smtpFormError(form)).toBeNull();
    expect(smtpFormError({ ...form, emailSendFromName: " " })).toBe("Sender name is required");
    expect(smtpFormError({ ...form, emailSendFrom: "ada" })).toBe("Please enter a valid email address");
    expect(smtpFormError({ ...form, smtpHost: "" })).toBe("SMTP host is required");
    expect(smtpFormError({ ...form, smtpPort: "70000" })).toBe("SMTP port must be between 1 and 65535");
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
