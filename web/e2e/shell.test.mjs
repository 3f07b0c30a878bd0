// Browser tests of the shell in Debian's Chromium (playwright-core) against a real `outreach serve`, signing in
// through a local fake Google provider.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, NEWCOMER, signIn as signInAs, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

const PEOPLE = { "Grace Hopper": ADMIN, "Ada Lovelace": MEMBER, "Alan Turing": NEWCOMER };
const signIn = (page, name) => signInAs(app, page, PEOPLE[name]);

test("signing in through Google shows the first name in the header", async () => {
  const page = await browser.newPage();
  await signIn(page, "Grace Hopper");
  // The logo links to the root (A §2; issue 83.20), checked below.
  const logo = page.getByRole("banner").getByRole("link", { name: "AI Outreach Agent", exact: true });
  await logo.waitFor();
  const tabs = page.getByRole("tablist", { name: "Dashboard" });
  assert.equal(await page.getByTestId("user-name").textContent(), "Grace");
  // The default tab, kept in the URL and in storage, and named in the title bar.
  assert.equal(await tabs.getByRole("tab", { selected: true }).textContent(), "STEP 2: Build Campaign");
  assert.equal(await page.title(), "Build Campaign · AI Outreach Agent");
  // A new user is told what the six steps are; the later steps are locked.
  await page.getByTestId("builder-guide").getByText("No campaigns yet. A campaign takes six steps:").waitFor();
  assert.equal(await page.getByRole("navigation", { name: "Campaign steps" }).getByRole("button", { name: /2\. Find Businesses/ }).isDisabled(), true);
  // Arrow keys move between the tabs and select them (one tab in the Tab order).
  await tabs.getByRole("tab", { selected: true }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await tabs.getByRole("tab", { selected: true }).textContent(), "Campaign Analytics");
  await page.keyboard.press("End");
  assert.equal(await tabs.getByRole("tab", { selected: true }).textContent(), "Test Automation");
  await page.keyboard.press("ArrowRight");
  assert.equal(await tabs.getByRole("tab", { selected: true }).textContent(), "STEP 1: Email Settings");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Home");
  assert.equal(await tabs.getByRole("tab", { selected: true }).textContent(), "STEP 1: Email Settings");
  assert.equal(await tabs.locator("[role=tab][tabindex='0']").count(), 1);
  // Every protected page has the app's header with the screens outside the tabs.
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Search Log" }).click();
  await page.waitForURL(`${app.base}/search-log`);
  await page.waitForFunction(() => document.title === "Search Log · AI Outreach Agent");
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Dashboard" }).click();
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("tab", { name: "Campaign Analytics" }).click();
  await page.getByRole("button", { name: "Build Your First Campaign" }).click();
  assert.equal(new URL(page.url()).searchParams.get("tab"), "campaign");
  await page.getByText("Emails this month:").waitFor();
  // The logo goes to the root, whose header leads a signed-in user back to the dashboard.
  await logo.click();
  await page.waitForURL(`${app.base}/`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await page.waitForURL(/\/dashboard/);
  await page.getByText("Emails this month:").waitFor();
  await page.close();
});

test("an inactive account sees the beta screen and signs out", async () => {
  const page = await browser.newPage();
  await signIn(page, "Ada Lovelace");
  await page.getByText("Your account needs to be activated to access the platform features.").waitFor();
  await page.getByText("Thanks for your interest! This platform is currently in beta and invite-only.").waitFor();
  await page.getByText("Premium Plan").waitFor();
  const request = page.getByRole("link", { name: "Request Beta Access" });
  const mail = decodeURIComponent(await request.getAttribute("href"));
  assert.ok(mail.startsWith("mailto:boss@example.org?"), mail);
  assert.ok(mail.includes("ada@example.org"), "the draft carries the user's address");
  await page.getByRole("link", { name: "Sign Out" }).click();
  await page.waitForURL(`${app.base}/`);
  await page.goto(`${app.base}/dashboard`);
  await page.waitForURL(`${app.base}/login`);
  await page.close();
});

test("an administrator's invite code lets an inactive account in", async () => {
  const admin = await browser.newPage();
  await signIn(admin, "Grace Hopper");
  await admin.goto(`${app.base}/admin/invites/create`);
  await admin.getByRole("button", { name: "Save" }).click();
  await admin.waitForURL(/\/admin\/invites$/);
  const code = (await admin.locator("#main-content .font-mono").first().textContent()).trim();
  assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "Ada Lovelace");
  await page.getByLabel("Invite code").fill(code);
  await page.getByRole("button", { name: "Activate" }).click();
  await page.getByTestId("user-name").waitFor();
  assert.equal(await page.getByTestId("user-name").textContent(), "Ada");
  await context.close();
  await admin.close();
});

test("the beta screen names the account and opens the app by itself once the administrator activates it", async () => {
  const page = await browser.newPage();
  await signIn(page, "Alan Turing");
  await page.getByTestId("gate-account").getByText("alan@example.org").waitFor();
  const admin = await browser.newPage();
  await signIn(admin, "Grace Hopper");
  const granted = await admin.request.post(`${app.base}/api/admin/set-user-status`, { data: { email: NEWCOMER.email, status: "free_trial" } });
  assert.equal(granted.status(), 200);
  await admin.close();
  // No reload by the person: the screen notices within its polling interval.
  await page.getByRole("tablist", { name: "Dashboard" }).waitFor({ timeout: 15_000 });
  assert.equal(await page.getByTestId("user-name").textContent(), "Alan");
  await page.close();
});

test("an unknown path shows the not-found page", async () => {
  const page = await browser.newPage();
  const response = await page.goto(`${app.base}/no/such/page`);
  assert.equal(response.status(), 200, "served by the SPA fallback");
  await page.getByText("404 Page Not Found").waitFor();
  await page.getByText("Did you forget to add the page to the router?").waitFor();
  await page.close();
});

test("a protected route while signed out lands on /login", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.base}/dashboard?tab=your-campaigns`);
  await page.waitForURL(`${app.base}/login`);
  await page.getByText("Welcome").waitFor();
  await page.getByRole("link", { name: "Continue with Google" }).waitFor();
  // The note on Google accounts shows with the Google button (without a Google client neither shows: issue 83.16).
  await page.getByText("No Google account? You can create one during sign-in.").waitFor();
  await context.close();
});

test("a cancelled Google consent returns to /login with a clear message", async () => {
  const page = await browser.newPage();
  await page.goto(`${app.base}/login`);
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.getByRole("link", { name: "Cancel" }).click();
  await page.waitForURL(`${app.base}/login?error=access_denied`);
  await page.getByRole("alert").getByText("You declined to share your Google account").waitFor();
  await page.close();
});
