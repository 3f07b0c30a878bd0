import { followUpErrors, unknownVariableField } from "./TemplateDialogs";
import { stepState } from "./Stepper";
import { describe, expect, it } from "vitest";
import { validateBrief, previewText } from "./Composer";
import { EDUCATION_FILES_LABEL, educationFileError } from "./EducationStep";
import { deleteCampaignConfirm } from "./CampaignBuilder";
import { generationError, templateSaveError } from "./messages";
import { STATUS_LABELS, statusBadgeClass } from "./api";

const complete = {
  templateName: "Intro",
  objective: "Lead Generation",
  serviceDescription: "bread",
  valueProposition: "fresh",
  yourAsk: "call?",
  promotionalUrl: "",
  tone: "professional",
  emailSignature: "Ada",
};

describe("composer rules", () => {
  it("names each missing field with the spec's message", () => {
    expect(validateBrief(complete)).toEqual({});
    expect(validateBrief({ ...complete, templateName: " ", yourAsk: "" })).toEqual({
      templateName: "Template name is required",
      yourAsk: "Your ask is required",
    });
    expect(validateBrief({ ...complete, promotionalUrl: "bakery" }).promotionalUrl).toBe("Please enter a valid URL");
    expect(validateBrief({ ...complete, promotionalUrl: "ftp://x.example" }).promotionalUrl).toBe("Please enter a valid URL");
    expect(validateBrief({ ...complete, promotionalUrl: "https://x.example" })).toEqual({});
  });

  it("previews the first 200 characters of the body's text", () => {
    const long = `<p>${"a".repeat(250)}</p>`;
    expect(previewText(long)).toBe(`${"a".repeat(200)}…`);
    expect(previewText("<p>Hi <b>there</b></p>")).toBe("Hi there");
  });
});

describe("AI education files", () => {
  it("refuses other types and files over 10 MB with the spec's texts", () => {
    expect(educationFileError({ name: "about.PDF", size: 10 })).toBeNull();
    expect(educationFileError({ name: "offer.docx", size: 10 * 1024 * 1024 })).toBeNull();
    expect(educationFileError({ name: "logo.png", size: 1 })).toBe("logo.png is not a supported file type. Please upload PDF or text files only.");
    expect(educationFileError({ name: "big.pdf", size: 10 * 1024 * 1024 + 1 })).toBe("big.pdf is larger than 10MB. Please choose a smaller file.");
  });

  it("refuses a legacy Word .doc when picked, in the server's words naming what can be read (issue 83.13)", () => {
    expect(educationFileError({ name: "Prices.DOC", size: 10 })).toBe(
      "Prices.DOC is a legacy Word .doc file, which cannot be read. Please save it as .docx or PDF and upload it again.",
    );
    expect(EDUCATION_FILES_LABEL).toBe("Files (PDF, TXT, DOCX; up to 10 MB each)");
  });
});

describe("messages", () => {
  it("maps generation failures to the composer's toasts", () => {
    expect(generationError(new Error('401: {"error":"unauthorized"}')).title).toBe("Login required");
    expect(generationError(new Error('429: {"message":"Service limit reached: quota"}')).title).toBe("Service limit reached");
    expect(generationError(new Error('503: {"message":"AI service unavailable: the API key was refused"}'))).toEqual({
      title: "AI service unavailable",
      description: "AI service unavailable: the API key was refused",
    });
    expect(generationError(new TypeError("Failed to fetch")).title).toBe("Connection error");
    expect(generationError(new Error('502: {"message":"Generation failed: odd answer"}'))).toEqual({ title: "Generation failed", description: "Generation failed: odd answer" });
  });

  it("maps template save failures", () => {
    expect(templateSaveError(new Error("401: {}")).title).toBe("Login required");
    expect(templateSaveError(new Error("403: {}")).description).toBe("Access denied: You don't have permission to save templates. Please contact support.");
    expect(templateSaveError(new Error("500: {}")).title).toBe("Server error");
    expect(templateSaveError(new Error('422: {"message":"Subject is required"}'))).toEqual({ title: "Invalid data", description: "Subject is required" });
  });

  it("confirms deletion with the spec's words and labels statuses", () => {
    expect(deleteCampaignConfirm("Cafés")).toBe('Are you sure you want to delete the campaign "Cafés"? This action cannot be undone.');
    expect(STATUS_LABELS.template_selected).toBe("Template ready");
    expect(statusBadgeClass("active")).toContain("bg-brand");
    expect(statusBadgeClass("paused")).toContain("bg-slate-200");
    expect(statusBadgeClass("draft")).toContain("border");
  });
});

describe("the stepper", () => {
  it("shows the step in view as current, reached ones as done or open, the rest locked", () => {
    // Reached step 5, looking at step 2.
    expect([1, 2, 3, 4, 5, 6].map((step) => stepState(step, 2, 5))).toEqual(["done", "current", "done", "done", "open", "locked"]);
    expect(stepState(1, 1, 1)).toBe("current");
    expect(stepState(2, 1, 1)).toBe("locked");
  });
});

describe("field-level errors", () => {
  it("name the follow-up and the field that is missing", () => {
    const rows = [
      { subject: "Checking in", body: "<p>Hi</p>", delayDays: 3 },
      { subject: " ", body: "<p></p>", delayDays: 9 },
    ];
    expect(followUpErrors(rows)).toEqual([
      {},
      { subject: "Follow-up 2 needs a subject", delayDays: "Follow-up 2: delay days must be between 1 and 7", body: "Follow-up 2 needs a body" },
    ]);
  });

  it("put an unknown variable under the field that holds it", () => {
    const refusal = "Unknown variable {{firstName}}: use {{businessName}}, {{city}}, {{website}}, {{category}} or {{icebreaker}}";
    expect(unknownVariableField(refusal, "Hi {{firstName}}")).toBe("subject");
    expect(unknownVariableField(refusal, "Hello")).toBe("body");
    expect(unknownVariableField("Template name is required", "Hello")).toBeNull();
  });
});
