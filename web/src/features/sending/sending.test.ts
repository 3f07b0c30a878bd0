import { describe, expect, it } from "vitest";
import { smtpFormError } from "./EmailSettings";

describe("sending rules", () => {
  it("the SMTP form names its first problem before the server is asked", () => {
    const form = { emailSendFromName: "Ada", emailSendFrom: "ada@bakery.example", emailReplyTo: "", smtpHost: "smtp.bakery.example", smtpPort: "587", smtpSecurity: "starttls", smtpUsername: "", smtpPassword: "" };
    expect(smtpFormError(form)).toBeNull();
    expect(smtpFormError({ ...form, emailSendFromName: " " })).toBe("Sender name is required");
    expect(smtpFormError({ ...form, emailSendFrom: "ada" })).toBe("Please enter a valid email address");
    expect(smtpFormError({ ...form, smtpHost: "" })).toBe("SMTP host is required");
    expect(smtpFormError({ ...form, smtpPort: "70000" })).toBe("SMTP port must be between 1 and 65535");
  });
});
