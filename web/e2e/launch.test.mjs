// Browser test of the builder's steps 5 and 6 for a returning user: the sender name and reply address (with
// 'Refresh from User Profile'), the campaign's AI settings and sending window kept over a reload, and the Test Campaign dialog with its
// limit of five businesses and its messages, and the pre-launch check's warnings and blocks.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

test("steps 5 and 6: sender identity, AI settings and the Test Campaign dialog", async () => {
  const admin = await browser.newPage();
  await signIn(app, admin, ADMIN);
  const granted = await admin.request.post(`${app.base}/api/admin/set-user-status`, { data: { email: MEMBER.email, status: "premium", emailLimit: 8 } });
  assert.equal(granted.status(), 200);
  await admin.close();
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = async (method, path, data) => (await page.request.fetch(`${app.base}${path}`, { method, data })).json();
  const template = await api("POST", "/api/email-templates", { name: "Intro", subject: "Hello {{businessName}}", body: "<p>Hi [business name]</p>" });
  const leads = ["name,email", ...[1, 2, 3, 4, 5, 6].map((n) => `Cafe ${n},owner${n}@cafe${n}.example`), "No Mail Deli,"].join("\n");
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("POST", "/api/campaigns", { name: "Autumn" });
  const ids = imported.businesses.map((business) => business.id);
  await api("PUT", `/api/campaigns/${campaign.id}`, { businessIds: ids, status: "businesses_selected", builderStep: 4 });
  await api("PUT", `/api/campaigns/${campaign.id}`, { templateId: template.id, status: "template_selected", builderStep: 5 });

  // Step 5: where the emails come from, the sender name and where replies go.
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("button", { name: /^Autumn/ }).click();
  // A campaign picked from the list shows 'Campaign Ready' first, with a way to continue where it left off.
  await page.getByTestId("campaign-ready").getByRole("button", { name: "Continue at Step 5: Sender Configuration" }).click();
  await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();
  await page.getByTestId("from-address").getByText("the local outbox", { exact: false }).waitFor();
  await page.getByLabel("Replies go to").fill("replies@");
  await page.getByRole("button", { name: "Go To Step 6" }).click();
  await page.getByRole("alert").getByText("Please enter a valid email address").waitFor();
  await page.getByRole("button", { name: "Refresh from User Profile" }).click();
  assert.equal(await page.getByLabel("Sender name").inputValue(), "Ada Lovelace");
  assert.equal(await page.getByLabel("Replies go to").inputValue(), MEMBER.email);
  // Step 6 opens while the sender is being saved: the stored campaign is read once that save has answered.
  const senderSaved = page.waitForResponse((response) => response.request().method() === "PUT" && response.url().endsWith(`/api/campaigns/${campaign.id}`));
  await page.getByRole("button", { name: "Go To Step 6" }).click();
  await page.getByRole("heading", { name: "STEP 6 OUT OF 6: Test and Launch" }).waitFor();
  assert.equal((await senderSaved).status(), 200);
  const stored = async () => (await api("GET", `/api/campaigns/${campaign.id}`));
  assert.deepEqual(
    await stored().then((saved) => [saved.emailFromName, saved.replyTo, saved.builderStep]),
    ["Ada Lovelace", MEMBER.email, 6],
  );

  // The AI settings: the defaults, changed, kept over a reload.
  const settings = page.getByRole("group", { name: "AI settings" });
  assert.equal(await settings.getByLabel("Certainty threshold").inputValue(), "high");
  assert.equal(await settings.getByLabel("Answers that wait for your approval").inputValue(), "first_ten");
  assert.equal(await settings.getByLabel("AI-optimised follow-up timing").isChecked(), true);
  assert.equal(await settings.getByLabel("Response style").inputValue(), "Patient");
  await settings.getByLabel("Sales aggressiveness").selectOption({ label: "Soft" });
  await settings.getByLabel("Certainty threshold").selectOption({ label: "Medium (75%+)" });
  await settings.getByLabel("Automatic answers a day at most").fill("5");
  await settings.getByLabel("Reply timing").selectOption({ label: "Quick (1 to 2 hours)" });
  await settings.getByLabel("AI-optimised follow-up timing").uncheck();
  await settings.getByRole("button", { name: "Save AI Settings" }).click();
  await page.getByTestId("toast").getByText("AI settings saved").waitFor();
  assert.deepEqual((await stored()).aiSettings, {
    salesAggressiveness: "soft", responseStyle: "patient", certaintyThreshold: "medium", replyTiming: "quick", aiOptimisedFollowUpTiming: false,
    humanApproval: "first_ten", autoReplyMaxPerDay: 5, minConfidencePercent: null,
  });
  await page.reload();
  await settings.getByLabel("Certainty threshold").waitFor();
  assert.equal(await settings.getByLabel("Certainty threshold").inputValue(), "medium");
  assert.equal(await settings.getByLabel("AI-optimised follow-up timing").isChecked(), false);
  // The sending window: this instance's default (every day, any hour), changed to weekday office hours, kept.
  const window = page.getByRole("group", { name: "Sending window" });
  await window.getByText("Sends every day, at any hour.").waitFor();
  for (const day of ["Sat", "Sun"]) await window.getByLabel(day).uncheck();
  await window.getByLabel("From").fill("09:00");
  await window.getByLabel("Until").fill("17:30");
  await window.getByLabel("Time zone when a recipient's is unknown").selectOption("Europe/Helsinki");
  await window.getByText("Sends Mon-Fri, 09:00-17:30.").waitFor();
  await window.getByRole("button", { name: "Save Sending Window" }).click();
  await page.getByTestId("toast").getByText("Sending window saved").waitFor();
  assert.deepEqual((await stored()).sendingWindow, {
    days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:30", timeZone: "Europe/Helsinki",
  });
  await page.reload();
  await window.getByText("Sends Mon-Fri, 09:00-17:30.").waitFor();
  // Issue 83.1: the pre-launch check follows a saved window at once, with no reload. All day on every day but today
  // (in the campaign's zone, which these recipients have): closed now for all of them; then every day, open again.
  const check = page.getByTestId("launch-check");
  const windowWarning = check.locator("[data-level=warn]").filter({ hasText: /sending window/i });
  const today = new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone: "Europe/Helsinki" }).format(new Date());
  for (const day of ["Sat", "Sun"]) await window.getByLabel(day).check();
  await window.getByLabel(today).uncheck();
  await window.getByLabel("From").fill("00:00");
  await window.getByLabel("Until").fill("00:00");
  await window.getByRole("button", { name: "Save Sending Window" }).click();
  await windowWarning.waitFor();
  await window.getByLabel(today).check();
  await window.getByText("Sends every day, at any hour.").waitFor();
  await window.getByRole("button", { name: "Save Sending Window" }).click();
  await windowWarning.waitFor({ state: "detached" });
  // The sender name and reply address are back in step 5 too, one click away in the stepper.
  await page.getByRole("navigation", { name: "Campaign steps" }).getByRole("button", { name: /5\. Sender Configuration/ }).click();
  assert.equal(await page.getByLabel("Sender name").inputValue(), "Ada Lovelace");
  await page.getByRole("navigation", { name: "Campaign steps" }).getByRole("button", { name: /6\. Test and Launch/ }).click();

  // The Test Campaign dialog: an address and one to five of the campaign's businesses.
  await page.getByRole("button", { name: "Test Campaign" }).click();
  const dialog = page.getByRole("dialog", { name: "Test Campaign" });
  await dialog.getByRole("checkbox", { name: /Cafe 1/ }).waitFor();
  assert.equal(await dialog.getByRole("checkbox").count(), 7);
  // Issue 33.5: the user's own address is the test address until changed.
  assert.equal(await dialog.getByLabel("Test email address").inputValue(), MEMBER.email);
  await dialog.getByLabel("Test email address").fill("me@");
  await dialog.getByRole("button", { name: "Send Test Emails" }).click();
  await page.getByTestId("toast").getByText("Please enter a valid test email address.").waitFor();
  await page.getByTestId("toast").getByText("Test Campaign Error").waitFor();
  await dialog.getByLabel("Test email address").fill("me@test.example");
  await dialog.getByRole("button", { name: "Send Test Emails" }).click();
  await page.getByTestId("toast").getByText("Please select at least one business for testing.").waitFor();
  for (const n of [1, 2, 3, 4, 5]) await dialog.getByRole("checkbox", { name: new RegExp(`Cafe ${n}`) }).check();
  await dialog.getByTestId("test-selection").getByText("Maximum Reached").waitFor();
  assert.equal(await dialog.getByRole("checkbox", { name: /Cafe 6/ }).isDisabled(), true);
  assert.equal(await dialog.getByRole("checkbox", { name: /No Mail Deli/ }).isDisabled(), true);
  await dialog.getByRole("checkbox", { name: /Cafe 5/ }).uncheck();
  assert.equal(await dialog.getByRole("checkbox", { name: /Cafe 6/ }).isDisabled(), false);
  await dialog.getByRole("checkbox", { name: /Cafe 6/ }).check();
  await dialog.getByRole("button", { name: "Send Test Emails" }).click();
  await dialog.getByRole("status").getByText("me@test.example", { exact: false }).waitFor();
  const outbox = await api("GET", "/api/outbox");
  const tests = outbox.filter((message) => message.isTest && message.toEmail === "me@test.example");
  assert.deepEqual(tests.map((message) => message.subject).sort(), ["Hello Cafe 1", "Hello Cafe 2", "Hello Cafe 3", "Hello Cafe 4", "Hello Cafe 6"]);

  // The pre-launch check: the five tests used five of the eight emails of the month, and the outbox has no postal
  // address to put in the footer; both are said, neither stops the launch.
  await page.keyboard.press("Escape");
  await check.getByText("6 emails to send, 1 business without an address skipped, 3 left this month.").waitFor();
  await check.getByText("6 emails to send, and 3 are left of this month's limit of 8: the campaign sends 3, then pauses until there is room.").waitFor();
  await check.getByText("The footer has no postal address.", { exact: false }).waitFor();
  assert.equal(await check.locator("[data-level=block]").count(), 0);
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  const confirm = page.getByRole("dialog", { name: "Launch campaign" });
  await confirm.getByText("are left of this month's limit", { exact: false }).waitFor();
  await confirm.getByRole("button", { name: "Cancel" }).click();

  // Only the business without an address: nothing to send, so the launch is blocked (and the server refuses it).
  const deli = imported.businesses.find((business) => business.name === "No Mail Deli").id;
  await api("PUT", `/api/campaigns/${campaign.id}`, { businessIds: [deli] });
  await page.reload();
  await check.locator("[data-level=block]").getByText("None of the chosen businesses has an email address", { exact: false }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Launch Campaign" }).isDisabled(), true);
  const refused = await page.request.post(`${app.base}/api/campaigns/send`, { data: { campaignId: campaign.id, templateId: template.id, businessIds: [deli] } });
  assert.equal(refused.status(), 422);
  await page.close();
});

test("deleting a campaign or a template asks in the app's own dialog", async () => {
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  // The browser's own confirm is never used: any would fail this test.
  page.on("dialog", (dialog) => assert.fail(`a browser dialog opened: ${dialog.message()}`));
  await page.request.post(`${app.base}/api/campaigns`, { data: { name: "Throwaway" } });
  await page.request.post(`${app.base}/api/email-templates`, { data: { name: "Old intro", subject: "Hi", body: "<p>Hi</p>" } });
  await page.reload();
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("button", { name: "Delete Throwaway" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete campaign" });
  await confirm.getByText('Are you sure you want to delete the campaign "Throwaway"? This action cannot be undone.').waitFor();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: /^Throwaway/ }).waitFor();
  await page.getByRole("button", { name: "Delete Throwaway" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("toast").getByText("Campaign deleted").waitFor();
  await page.getByRole("button", { name: /^Throwaway/ }).waitFor({ state: "detached" });

  await page.getByRole("tab", { name: "Email Templates" }).click();
  await page.getByRole("article", { name: "Old intro" }).getByRole("button", { name: "Delete" }).click();
  const templateConfirm = page.getByRole("dialog", { name: "Delete Old intro" });
  await templateConfirm.getByText("Are you sure you want to delete this template?").waitFor();
  await templateConfirm.getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("toast").getByText("Template deleted").waitFor();
  await page.getByRole("article", { name: "Old intro" }).waitFor({ state: "detached" });
  await page.close();
});

test("the standalone test-email screen sends copies of a template or of a custom email (issue 33.6)", async () => {
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  await page.request.post(`${app.base}/api/email-templates`, { data: { name: "Soup", subject: "Soup for {{businessName}}", body: "<p>Hi [business name]</p>" } });
  const before = (await (await page.request.get(`${app.base}/api/outbox`)).json()).length;
  await page.reload();
  await page.getByRole("tab", { name: "Email Templates" }).click();
  await page.getByRole("heading", { name: "Choose Email Template / Launch Campaign" }).waitFor();
  await page.getByRole("article", { name: "Soup" }).getByRole("button", { name: "Send Test" }).click();
  const dialog = page.getByRole("dialog", { name: "Send Test Email" });
  // The user's own address and three copies, unless changed.
  assert.equal(await dialog.getByLabel("Test email address").inputValue(), MEMBER.email);
  assert.equal(await dialog.getByLabel("Number of test emails (1 to 10)").inputValue(), "3");
  await dialog.getByLabel("Number of test emails (1 to 10)").fill("11");
  await dialog.getByRole("button", { name: "Send Test Email" }).click();
  await dialog.getByRole("alert").getByText("Quantity must be between 1 and 10").waitFor();
  await dialog.getByLabel("Number of test emails (1 to 10)").fill("2");
  await dialog.getByRole("button", { name: "Send Test Email" }).click();
  await page.getByTestId("toast-title").getByText("Test Email Sent", { exact: true }).waitFor();
  await dialog.waitFor({ state: "detached" });
  const outbox = await (await page.request.get(`${app.base}/api/outbox`)).json();
  const tests = outbox.slice(0, outbox.length - before);
  assert.deepEqual(tests.map((message) => [message.toEmail, message.subject, message.isTest]), [[MEMBER.email, "Soup for Sample Business", true], [MEMBER.email, "Soup for Sample Business", true]]);
  assert.ok(tests[0].htmlBody.includes("Hi Sample Business"), tests[0].htmlBody);

  // A custom email needs a subject and a body.
  await page.getByRole("button", { name: "Send Test Email" }).click();
  await dialog.getByLabel("Content").selectOption({ label: "Custom subject and body" });
  await dialog.getByLabel("Subject").fill("Just checking");
  await dialog.getByRole("button", { name: "Send Test Email" }).click();
  await dialog.getByRole("alert").getByText("Missing Content: Please select a template or enter custom subject and body.").waitFor();
  await dialog.getByLabel("Body").fill("Is this arriving?");
  await dialog.getByLabel("Number of test emails (1 to 10)").fill("1");
  await dialog.getByRole("button", { name: "Send Test Email" }).click();
  await page.getByTestId("toast-title").getByText("Test Email Sent", { exact: true }).last().waitFor();
  const latest = (await (await page.request.get(`${app.base}/api/outbox`)).json())[0];
  assert.deepEqual([latest.subject, latest.isTest], ["Just checking", true]);
  assert.ok(latest.htmlBody.includes("<p>Is this arriving?</p>"), latest.htmlBody);

  // Issue 33.7: step 5 leads to Email Settings for more senders.
  const api = async (method, path, data) => (await page.request.fetch(`${app.base}${path}`, { method, data })).json();
  const templates = await api("GET", "/api/email-templates");
  const winter = await api("POST", "/api/campaigns", { name: "Winter" });
  const business = (await api("GET", "/api/businesses"))[0];
  await api("PUT", `/api/campaigns/${winter.id}`, { businessIds: [business.id], status: "businesses_selected", builderStep: 4 });
  await api("PUT", `/api/campaigns/${winter.id}`, { templateId: templates[0].id, status: "template_selected", builderStep: 5 });
  await page.reload();
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("button", { name: /^Winter/ }).click();
  await page.getByTestId("campaign-ready").getByRole("button", { name: "Continue at Step 5: Sender Configuration" }).click();
  await page.getByRole("button", { name: "Configure More Email Options" }).click();
  await page.getByRole("tab", { name: "Email Settings", selected: true }).waitFor();

  // A test email that meets a lost session says so and goes to Google sign-in, not /login (A §8; issue 83.21).
  await page.getByRole("tab", { name: "Email Templates" }).click();
  await page.getByRole("article", { name: "Soup" }).getByRole("button", { name: "Send Test" }).click();
  await page.context().clearCookies();
  await dialog.getByRole("button", { name: "Send Test Email" }).click();
  await page.getByTestId("toast").filter({ hasText: "Authentication Required" }).getByText("Redirecting to login...").waitFor();
  await page.waitForURL((url) => url.href.startsWith(`${stack.google.url}/authorize?`));
  await page.getByRole("heading", { name: "Choose an account" }).waitFor();
  await page.close();
});
