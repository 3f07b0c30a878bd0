// Browser tests of the public and static pages: key texts, links and mail drafts, the logo download, the
// unsubscribe form (checked through the admin API) and the three states of the Gmail result page.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { after, before, test } from "node:test";
import { ADMIN, mailParts, signIn, startStack } from "./support.mjs";

const SECRET_KEY = "e2e-secret-key-".repeat(5);
let stack;
let app;
let browser;

before(async () => {
  stack = await startStack({
    OUTREACH_INSTANCE__OPERATOR_NAME: "Acme Outreach",
    OUTREACH_INSTANCE__CONTACT_EMAIL: "owner@acme.test",
    OUTREACH_INSTANCE__SUPPORT_EMAILS: "help@acme.test,billing@acme.test",
    OUTREACH_INSTANCE__SENDING_DOMAIN: "hello.acme.test",
    OUTREACH_SECURITY__SECRET_KEY: SECRET_KEY,
    OUTREACH_INSTANCE__BIOGRAPHY_URL: "https://acme.test/about-me",
    OUTREACH_INSTANCE__COURSES_URL: "https://learn.acme.test/",
  });
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

async function hrefOf(locator) {
  return locator.getAttribute("href");
}

test("the invite-only landing page: title, 50% banner, invite box, tiers, features and links", async () => {
  const page = await browser.newPage();
  await page.goto(`${app.base}/`);
  await page.getByRole("heading", { name: "AI Outreach Agent: invite-only beta" }).waitFor();
  await page.getByText("Pay with crypto and save 50%").waitFor();
  const invite = mailParts(await hrefOf(page.getByRole("link", { name: "Email for your invite code" })));
  assert.equal(invite.to, "owner@acme.test");
  assert.equal(invite.subject, "Invite Code Request");

  const nav = page.getByRole("navigation", { name: "Main" });
  assert.equal(await hrefOf(nav.getByRole("link", { name: "About" })), "/about");
  assert.equal(await hrefOf(nav.getByRole("link", { name: "Pricing" })), "/pricing");
  assert.equal(await hrefOf(nav.getByRole("link", { name: "Features" })), "/#features");
  assert.equal(await hrefOf(nav.getByRole("link", { name: "Sign In" })), "/login");
  assert.equal(await page.locator("#features article").count(), 6);

  for (const [plan, price] of [["Starter", "$49"], ["Professional", "$99"], ["Personalized", "$199"]]) {
    await page.getByRole("article", { name: `${plan} plan` }).getByText(price).waitFor();
  }
  await page.getByRole("article", { name: "Professional plan" }).getByText("Most Popular").waitFor();
  await page.getByRole("article", { name: "Starter plan" }).getByText("500 emails per month").first().waitFor();
  await page.getByRole("article", { name: "Personalized plan" }).getByText("A 1-hour coaching session").waitFor();
  assert.equal(await hrefOf(page.getByRole("article", { name: "Starter plan" }).getByRole("link", { name: "Sign Up" })), "/auth/google");
  const inquiry = mailParts(await hrefOf(page.getByRole("article", { name: "Personalized plan" }).getByRole("link", { name: "Contact Us" })));
  assert.equal(inquiry.subject, "Enterprise Pricing Inquiry - Personalized Plan");

  const footer = page.getByRole("navigation", { name: "Footer" });
  for (const [name, href] of [["About", "/about"], ["Pricing", "/pricing"], ["Contact", "/contact"], ["Privacy Policy", "/privacy"], ["Terms of Service", "/terms"]]) {
    assert.equal(await hrefOf(footer.getByRole("link", { name })), href);
  }
  await page.goto(`${app.base}/home`);
  await page.getByRole("heading", { name: "AI Outreach Agent: invite-only beta" }).waitFor();
  await page.close();
});

test("at 360 px wide the landing page does not scroll sideways", async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await page.goto(`${app.base}/`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0);
  await page.close();
});

test("about: mission, four cards, contact link, Sign In through /api/login", async () => {
  const page = await browser.newPage();
  await page.goto(`${app.base}/about`);
  await page.getByRole("heading", { name: "About Acme Outreach" }).waitFor();
  await page.getByRole("heading", { name: "Our mission" }).waitFor();
  for (const card of ["Author", "Instructor", "Coach", "Impact"]) {
    await page.getByRole("heading", { name: card, exact: true }).waitFor();
  }
  assert.equal(mailParts(await hrefOf(page.getByRole("link", { name: "Get in touch" }))).to, "owner@acme.test");
  assert.equal(await hrefOf(page.getByRole("link", { name: "Sign In" })), "/api/login");
  assert.equal(await hrefOf(page.getByRole("link", { name: "Full biography" })), "https://acme.test/about-me");
  assert.equal(await hrefOf(page.getByRole("link", { name: "Online courses" })), "https://learn.acme.test/");
  assert.equal(await hrefOf(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Features" })), "/#features");
  await page.close();
});

test("pricing and choose-plan: the 20% banner, invitation notice, tiers, features and the auth=success message", async () => {
  const page = await browser.newPage();
  for (const path of ["/pricing", "/auth/choose-plan/"]) {
    await page.goto(`${app.base}${path}`);
    await page.getByRole("heading", { name: "Choose Your Plan" }).waitFor();
    await page.getByText("Pay with crypto and get 20% off any plan.").waitFor();
    await page.getByText("Access is by invitation only during the beta.", { exact: false }).waitFor();
    for (const feature of ["AI-Powered", "Smart Discovery", "Automated Campaigns"]) {
      await page.getByRole("heading", { name: feature }).waitFor();
    }
  }
  assert.equal(await page.getByText("Your account has been created. Choose a plan to get started.").count(), 0);
  await page.goto(`${app.base}/pricing?auth=success`);
  await page.getByText("Your account has been created. Choose a plan to get started.").waitFor();
  assert.equal(await hrefOf(page.getByRole("article", { name: "Professional plan" }).getByRole("link", { name: "Sign Up" })), "/auth/google");
  await page.close();
});

test("purchase emails and custom email setup, signed in", async () => {
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.goto(`${app.base}/purchase-emails`);
  await page.getByRole("heading", { name: "Purchase More Emails" }).waitFor();
  for (const item of ["Your current plan", "The monthly email limit you need", "Your use case", "Your timeline"]) {
    await page.getByText(item).waitFor();
  }
  await page.getByText("within about 24 hours").waitFor();
  const draft = mailParts(await hrefOf(page.getByRole("link", { name: "Email the Owner" })));
  assert.equal(draft.to, "owner@acme.test");
  assert.equal(draft.subject, "Request to Purchase More Emails");
  assert.ok(draft.body.includes("Account email: boss@example.org"), draft.body);
  assert.equal(await hrefOf(page.getByRole("link", { name: "← Back to Dashboard" })), "/dashboard");

  await page.goto(`${app.base}/custom-email`);
  await page.getByRole("heading", { name: "Custom Email Setup" }).waitFor();
  await page.getByTestId("system-address").getByText("grace@hello.acme.test", { exact: true }).waitFor();
  for (const heading of ["Option 1: Your own domain", "Option 2: Personalized subdomain", "Option 3: Industry-specific subdomain", "Getting started", "Questions"]) {
    await page.getByRole("heading", { name: heading }).waitFor();
  }
  await page.getByText("Custom email is included in your subscription at no extra fee.").waitFor();
  const support = mailParts(await hrefOf(page.getByRole("link", { name: "Contact Support" })));
  assert.equal(support.to, "help@acme.test");
  assert.equal(support.subject, "Custom Email Setup Request");
  await page.close();

  const visitor = await browser.newPage();
  await visitor.goto(`${app.base}/custom-email`);
  await visitor.waitForURL(`${app.base}/login`);
  await visitor.close();
});

test("privacy and terms show today's date, the operator, the scopes and a way home", async () => {
  const page = await browser.newPage();
  const today = new Date().toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  await page.goto(`${app.base}/privacy`);
  await page.getByRole("heading", { name: "Privacy Policy" }).waitFor();
  await page.getByText(`Last updated: ${today}`).waitFor();
  await page.getByText("Acme Outreach", { exact: true }).first().waitFor();
  for (const scope of ["gmail.send", "gmail.readonly", "openid"]) {
    await page.getByText(scope, { exact: true }).waitFor();
  }
  await page.getByText("We do not sell personal data").waitFor();
  await page.getByText("are encrypted before they are stored").waitFor();
  assert.equal(await hrefOf(page.getByRole("link", { name: "Back to home" })), "/");

  await page.goto(`${app.base}/terms`);
  await page.getByRole("heading", { name: "Terms of Service" }).waitFor();
  await page.getByText(`Last updated: ${today}`).waitFor();
  for (const section of ["1. Acceptance", "2. Your duties as a sender", "3. Prohibited uses", "4. Availability", "5. Liability", "6. Termination"]) {
    await page.getByRole("heading", { name: section }).waitFor();
  }
  assert.equal(await hrefOf(page.getByRole("link", { name: "Back to home" })), "/");
  await page.close();
});

test("contact: two support addresses, the mail link and the 24-hour note", async () => {
  const page = await browser.newPage();
  await page.goto(`${app.base}/contact`);
  await page.getByRole("heading", { name: "Contact", exact: true }).waitFor();
  assert.equal(await hrefOf(page.getByRole("link", { name: "help@acme.test" })), "mailto:help@acme.test");
  assert.equal(await hrefOf(page.getByRole("link", { name: "billing@acme.test" })), "mailto:billing@acme.test");
  assert.equal(mailParts(await hrefOf(page.getByRole("link", { name: "Send us an email" }))).subject, "Support Request");
  await page.getByText("We reply within about 24 hours.").waitFor();
  await page.getByRole("heading", { name: "Common questions" }).waitFor();
  await page.close();
});

test("the logo downloads as a square 120×120 PNG under 1 MB and as the SVG", async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${app.base}/download-logo`);
  await page.getByRole("img", { name: "Outreach logo, 120 by 120 pixels" }).waitFor();
  const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download PNG (120×120)" }).click()]);
  const bytes = await readFile(await png.path());
  assert.equal(bytes.subarray(1, 4).toString("ascii"), "PNG");
  assert.equal(bytes.readUInt32BE(16), 120, "width");
  assert.equal(bytes.readUInt32BE(20), 120, "height");
  assert.ok(bytes.length < 1024 * 1024, `${bytes.length} bytes`);
  assert.ok(bytes.length > 1000, "a drawn logo, not an empty image");

  const [svg] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download SVG" }).click()]);
  const text = await readFile(await svg.path(), "utf8");
  assert.ok(text.startsWith("<svg") && text.includes('viewBox="0 0 120 120"'));
  await page.getByText("square PNG logo under 1 MB").waitFor();
  await context.close();
});

test("unsubscribe: validation, success, and the address on the suppression list", async () => {
  const page = await browser.newPage();
  await page.goto(`${app.base}/unsubscribe`);
  await page.getByLabel("Email address").fill("not-an-email");
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await page.getByText("Please enter a valid email address").waitFor();
  await page.getByLabel("Email address").fill("Prospect@Example.com");
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await page.getByRole("heading", { name: "Unsubscribed Successfully" }).waitFor();
  await page.getByText("removed from all marketing lists across all campaigns").waitFor();

  // A signed link pre-fills the address.
  const email = "linked@example.com";
  const signature = createHmac("sha256", SECRET_KEY).update("unsubscribe\0" + email).digest("base64url");
  await page.goto(`${app.base}/unsubscribe?email=${encodeURIComponent(email)}&signature=${signature}`);
  await page.waitForFunction(() => document.querySelector("#unsubscribe-email")?.value === "linked@example.com");
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await page.getByRole("heading", { name: "Unsubscribed Successfully" }).waitFor();
  await page.close();

  const admin = await browser.newPage();
  await signIn(app, admin, ADMIN);
  const response = await admin.request.get(`${app.base}/api/admin/unsubscribes`);
  const listed = (await response.json()).map((row) => `${row.email}:${row.source}`).sort();
  assert.deepEqual(listed, ["linked@example.com:link", "prospect@example.com:form"]);
  await admin.close();
});

test("the Gmail permission result: success, failure reasons and unknown after 3 seconds", async () => {
  const page = await browser.newPage();
  for (const success of ["gmail_oauth_complete", "true"]) {
    await page.goto(`${app.base}/gmail-oauth-result?success=${success}`);
    await page.getByRole("heading", { name: "Gmail Permission Granted Successfully!" }).waitFor();
    assert.equal(await hrefOf(page.getByRole("link", { name: "Continue to Dashboard" })), "/dashboard?tab=email-settings&gmail=success");
  }
  await page.goto(`${app.base}/gmail-oauth-result?success=gmail_oauth_complete&email=ada%40gmail.com`);
  assert.equal(await hrefOf(page.getByRole("link", { name: "Continue to Dashboard" })), "/dashboard?tab=email-settings&gmail=success&email=ada%40gmail.com");
  const reasons = [
    ["error=access_denied", "You declined to grant the necessary permissions."],
    ["error=server_error", "There was a server error during the authorization process."],
    ["error=temporarily_unavailable", "The permission request could not be completed."],
    ["success=false", "The permission request could not be completed."],
  ];
  for (const [query, reason] of reasons) {
    await page.goto(`${app.base}/gmail-oauth-result?${query}&state=abc`);
    await page.getByRole("heading", { name: "Gmail Permission Request Failed" }).waitFor();
    await page.getByText(reason).waitFor();
    assert.equal(await hrefOf(page.getByRole("link", { name: "Try Again" })), "/dashboard?tab=email");
    assert.equal(await hrefOf(page.getByRole("link", { name: "Return to Dashboard" })), "/dashboard");
  }
  // An installed clock follows real time until paused, and on a busy machine that real time ran the page's 3-second
  // timer out early. Paused, only runFor moves it: the page is stepped 10 ms at a time until it shows the heading
  // (loading it needs timers too), so at most 10 ms of page time has gone when the wait is measured.
  const start = new Date("2026-01-01T00:00:00Z");
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 60_000));
  await page.goto(`${app.base}/gmail-oauth-result`);
  const processing = page.getByRole("heading", { name: "Processing Authorization..." });
  for (let step = 0; step < 500 && !(await processing.isVisible()); step += 1) await page.clock.runFor(10);
  assert.ok(await processing.isVisible());
  await page.clock.runFor(2900);
  assert.equal(await page.getByRole("heading", { name: "Authorization Status Unknown" }).count(), 0);
  await page.clock.runFor(200);
  await page.getByRole("heading", { name: "Authorization Status Unknown" }).waitFor();
  await page.close();
});

test("the access-denied page and protected routes", async () => {
  const page = await browser.newPage();
  await page.goto(`${app.base}/access-denied`);
  await page.getByRole("heading", { name: "Access denied" }).waitFor();
  await page.goto(`${app.base}/purchase-emails`);
  await page.waitForURL(`${app.base}/login`);
  await page.close();
});

test("with invites off, the landing page is the full one with its sign-up call to action", async () => {
  const open = await startStack({ OUTREACH_AUTH__INVITE_ONLY: "false" });
  try {
    const page = await open.browser.newPage();
    await page.goto(`${open.app.base}/`);
    await page.getByRole("heading", { name: "Find clients and win them with AI-written outreach" }).waitFor();
    assert.equal(await hrefOf(page.getByRole("link", { name: "Browse Plans & Pricing" })), "/pricing");
    await page.getByRole("heading", { name: "Ready to fill your pipeline?" }).waitFor();
    const signUps = page.getByRole("link", { name: "Sign Up" });
    for (let index = 0; index < (await signUps.count()); index++) {
      assert.equal(await signUps.nth(index).getAttribute("href"), "/auth/google");
    }
    assert.equal(await page.getByText("Pay with crypto and save 50%").count(), 0);
  } finally {
    await open.stop();
  }
});

/** A raw GET (no automatic decompression): status, headers and body bytes. */
function rawGet(url, encoding) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: encoding ? { "accept-encoding": encoding } : {} }, (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

test("the app's files are served precompressed with Brotli or gzip, as the browser accepts", async () => {
  const plain = await rawGet(`${app.base}/`);
  assert.equal(plain.headers["content-encoding"], undefined);
  // The page itself is under a kilobyte and goes as it is; its script and styles are compressed.
  assert.equal(plain.headers.vary, "accept-encoding");
  const script = plain.body.toString().match(/src="(\/assets\/[^"]+\.js)"/)[1];
  const styles = plain.body.toString().match(/href="(\/assets\/[^"]+\.css)"/)[1];
  for (const path of [script, styles]) {
    const identity = await rawGet(`${app.base}${path}`, "identity");
    const br = await rawGet(`${app.base}${path}`, "gzip, deflate, br, zstd");
    const gzip = await rawGet(`${app.base}${path}`, "gzip, br;q=0");
    assert.equal(identity.headers["content-encoding"], undefined, path);
    assert.equal(br.headers["content-encoding"], "br", path);
    assert.equal(gzip.headers["content-encoding"], "gzip", path);
    assert.equal(br.headers.vary, "accept-encoding");
    assert.equal(br.headers["content-type"], identity.headers["content-type"]);
    assert.ok(br.body.length < identity.body.length, `${path}: ${br.body.length} of ${identity.body.length} bytes`);
    assert.deepEqual(brotliDecompressSync(br.body), identity.body, path);
    assert.deepEqual(gunzipSync(gzip.body), identity.body, path);
  }
});
