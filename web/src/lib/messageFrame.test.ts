import { describe, expect, it } from "vitest";
import { offlineDocument } from "./messageFrame";

describe("offlineDocument", () => {
  it("puts the policy in the head, after the doctype, or first", () => {
    expect(offlineDocument("<html><HEAD><title>x</title></HEAD><body>Hi</body></html>")).toMatch(
      /^<html><HEAD><meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*"><title>/,
    );
    const pixel = `<!doctype html><html><body><p>Hi</p><img src="https://out.example/t/o/tok.gif?s=x"></body></html>`;
    const safe = offlineDocument(pixel);
    expect(safe.startsWith("<!doctype html><meta http-equiv=\"Content-Security-Policy\"")).toBe(true);
    expect(safe.endsWith(pixel.slice("<!doctype html>".length))).toBe(true);
    expect(offlineDocument("<p>Hi</p>")).toMatch(/^<meta [^>]*img-src data:"><p>Hi<\/p>$/);
  });
});
