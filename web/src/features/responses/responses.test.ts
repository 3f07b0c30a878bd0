import { describe, expect, it } from "vitest";
import { textToHtml } from "../../lib/format";
import { htmlToText } from "../../lib/replies";
import { sentimentShares, testFormError } from "./rules";

describe("the Responses screen", () => {
  it("refuses the test form in B §5's words, first problem first", () => {
    expect(testFormError({ from: "nobody", subject: "", body: "" })).toBe("Please enter a valid email address");
    expect(testFormError({ from: "a@cafe.example", subject: " ", body: "" })).toBe("Subject is required");
    expect(testFormError({ from: "a@cafe.example", subject: "Re: Bread", body: " Too short " })).toBe("Response body must be at least 10 characters");
    expect(testFormError({ from: "a@cafe.example", subject: "Re: Bread", body: "Yes, please" })).toBeNull();
  });

  it("shows each sentiment's share in whole percent", () => {
    expect(sentimentShares({ positive: 1, neutral: 1, negative: 1 })).toEqual({ positive: 33, neutral: 33, negative: 33, total: 3 });
    expect(sentimentShares({ positive: 0, neutral: 0, negative: 0 }).positive).toBe(0);
  });

  it("edits an answer as plain paragraphs and escapes what is typed", () => {
    const html = "<p>Hello Cafe,</p><p>Thank you.</p><p>Best regards,<br>Ada</p>";
    expect(htmlToText(html)).toBe("Hello Cafe,\n\nThank you.\n\nBest regards,\nAda");
    expect(textToHtml("Hello <b>you</b>,\n\nBest regards,\nAda")).toBe("<p>Hello &lt;b&gt;you&lt;/b&gt;,</p><p>Best regards,<br>Ada</p>");
    expect(textToHtml(htmlToText(html))).toBe(html);
  });
});
