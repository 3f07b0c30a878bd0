import { describe, expect, it } from "vitest";
import { DEFAULT_TEST_QUANTITY, testEmailAnswer, testEmailError, testEmailFailure } from "./testEmail";

const form = { testEmail: "me@test.example", quantity: DEFAULT_TEST_QUANTITY, templateId: 4, subject: "", body: "" };

describe("the standalone test-email form (A §5, §8)", () => {
  it("checks the address, the quantity (1 to 10, 3 by default) and that there is something to send", () => {
    expect(testEmailError(form)).toBeNull();
    expect(testEmailError({ ...form, testEmail: "me" })).toBe("Please enter a valid email address");
    expect(testEmailError({ ...form, quantity: 11 })).toBe("Quantity must be between 1 and 10");
    expect(testEmailError({ ...form, quantity: 0 })).toBe("Quantity must be between 1 and 10");
    expect(testEmailError({ ...form, templateId: null, subject: "Hi" })).toBe("Missing Content: Please select a template or enter custom subject and body.");
    expect(testEmailError({ ...form, templateId: null, subject: "Hi", body: "<p>Hello</p>" })).toBeNull();
  });

  it("words every outcome as the spec does; a lost session goes to Google sign-in, not /login (issue 83.21)", () => {
    expect(testEmailAnswer({ success: true, sent: 3, message: "3 test emails sent to me@test.example" })).toEqual({ title: "Test Email Sent", description: "3 test emails sent to me@test.example" });
    expect(testEmailAnswer({ success: false, sent: 0, message: "Test email failed: 550", troubleshooting: "Check the sender" }).title).toBe("Failed to Send Test Email");
    expect(testEmailFailure(new Error('401: {"error":"unauthorized","message":"Authentication required"}'))).toMatchObject({ title: "Authentication Required", description: "Redirecting to login...", signInAt: "/auth/google" });
    expect(testEmailFailure(new Error('409: {"error":"email_service_not_configured","message":"Email service not configured: every sender of yours is turned off."}'))).toMatchObject({ title: "Email Service Error", description: "Email service is not properly configured. Please contact support." });
    expect(testEmailFailure(new Error('422: {"error":"validation","message":"Please enter a valid email address"}'))).toMatchObject({ title: "Invalid Input", description: "Please check your email address, subject, and body content." });
    expect(testEmailFailure(new Error("500: Internal Server Error"))).toMatchObject({ title: "Failed to Send Test Email" });
  });
});
