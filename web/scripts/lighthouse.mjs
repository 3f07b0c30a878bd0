// Lighthouse (desktop preset) on the landing page of a fresh `outreach serve`, in Debian's Chromium.
// Run with `make lighthouse`; prints each category's score and the key timings.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOutreach } from "../e2e/server.mjs";

const report = join(mkdtempSync(join(tmpdir(), "lighthouse-")), "report.json");
const app = await startOutreach({ OUTREACH_INSTANCE__CONTACT_EMAIL: "owner@example.org" });
try {
  execFileSync(
    "npx",
    [
      "--yes", "lighthouse@12", `${app.base}/`, "--preset=desktop", "--quiet",
      "--only-categories=performance,accessibility,best-practices", "--output=json", `--output-path=${report}`,
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync",
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" }, stdio: "inherit" },
  );
} finally {
  await app.stop();
}
const result = JSON.parse(readFileSync(report, "utf8"));
for (const [name, category] of Object.entries(result.categories)) console.log(`${name}: ${Math.round(category.score * 100)}`);
for (const audit of ["first-contentful-paint", "largest-contentful-paint", "cumulative-layout-shift", "total-blocking-time"]) {
  console.log(`${audit}: ${result.audits[audit].displayValue}`);
}
