/** The standalone test-email form (A §5 Standalone test-email form, §8 Test email): its limits, and how each answer
 * of `POST /api/campaigns/test` reads, in the spec's words. */
import type { TestResult } from "@outreach/client/api/types";
import { GOOGLE_SIGN_IN_PATH } from "../../lib/auth";

export const DEFAULT_TEST_QUANTITY = 3;

export interface TestEmailForm {
  testEmail: string;
  quantity: number;
  /** A template, or none for the custom subject and body. */
  templateId: number | null;
  subject: string;
  body: string;
}

/** The first rule the form breaks, or null. */
export function testEmailError(form: TestEmailForm): string | null {
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.testEmail.trim())) return "Please enter a valid email address";
  if (!(Number.isInteger(form.quantity) && form.quantity >= 1 && form.quantity <= 10)) return "Quantity must be between 1 and 10";
  if (form.templateId === null && (!form.subject.trim() || !form.body.trim())) {
    return "Missing Content: Please select a template or enter custom subject and body.";
  }
  return null;
}

export interface TestEmailToast {
  title: string;
  description?: string;
  variant?: "destructive";
  /** The session is gone: where the page goes to sign in again once the toast has been read. */
  signInAt?: string;
}

/** The toast for a sent test, or for one the sender refused (`success` false). */
export function testEmailAnswer(answer: TestResult): TestEmailToast {
  if (answer.success) return { title: "Test Email Sent", description: answer.message };
  return { title: "Failed to Send Test Email", description: answer.troubleshooting ?? answer.message, variant: "destructive" };
}

/** The toast for a request that failed (A §8 test email errors): "status: body" from the request helper. A 401 leads
 * to Google sign-in, as A §8 says. */
export function testEmailFailure(failure: Error): TestEmailToast {
  const text = failure.message;
  const status = Number(text.slice(0, text.indexOf(":")));
  if (status === 401 || text.includes("Unauthorized")) {
    return { title: "Authentication Required", description: "Redirecting to login...", variant: "destructive", signInAt: GOOGLE_SIGN_IN_PATH };
  }
  if (text.includes("Email service not configured")) {
    return { title: "Email Service Error", description: "Email service is not properly configured. Please contact support.", variant: "destructive" };
  }
  if (status === 422 || text.includes("Invalid input data")) {
    return { title: "Invalid Input", description: "Please check your email address, subject, and body content.", variant: "destructive" };
  }
  return { title: "Failed to Send Test Email", variant: "destructive" };
}
