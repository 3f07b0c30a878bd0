// Browser test of issue 81: step 5's tracking and format settings (a new campaign starts plain text without
// tracking, and says what tracking costs), the launch dialog's spam check (a spammy template is held until the user
// confirms), the template's A/B variants, and the campaign's variants with their winner picked by hand.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  // The built-in checks, so the spammy template scores the same on any machine (SpamAssassin's scores are the API
  // tests' and core's).
  stack = await startStack({ OUTREACH_DELIVERABILITY__SPAMASSASSIN: "off" });
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

test("tracking settings, the spam check in the launch dialog, and A/B variants with a winner", async () => {
  const admin = await browser.newPage();
  await signIn(app, admin, ADMIN);
  const granted = await admin.request.post(`${app.base}/api/admin/set-user-status`, { data: { email: MEMBER.email, status: "premium", emailLimit: 100 } });
  assert.equal(granted.status(), 200);
  await admin.close();
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = async (method, path, data) => (await page.request.fetch(`${app.base}${path}`, { method, data })).json();
  const template = await api("POST", "/api/email-templates", {
    name: "Spammy",
    subject: "FREE!!! CLICK HERE NOW",
    body: '<p><a href="https://bit.ly/3xYzAb">FREE!!! Click here</a>, 100% free, act now, guaranteed winner!!!</p>',
  });
  const leads = ["name,email", ...[1, 2, 3, 4].map((n) => `Cafe ${n},owner${n}@cafe${n}.example`)].join("\n");
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("POST", "/api/campaigns", { name: "Winter" });
  assert.deepEqual([campaign.plainText, campaign.trackOpens, campaign.trackClicks], [true, false, false]);
  const ids = imported.businesses.map((business) => business.id);
  await api("PUT", `/api/campaigns/${campaign.id}`, { businessIds: ids, status: "businesses_selected", builderStep: 4 });
  await api("PUT", `/api/campaigns/${campaign.id}`, { templateId: template.id, status: "template_selected", builderStep: 5 });
  const stored = async () => api("GET", `/api/campaigns/${campaign.id}`);

  // Step 5: plain text without tracking, and one sentence on what tracking costs.
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("button", { name: /^Winter/ }).click();
  await page.getByTestId("campaign-ready").getByRole("button", { name: "Continue at Step 5: Sender Configuration" }).click();
  await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();
  const tracking = page.getByRole("group", { name: "Tracking and format" });
  assert.equal(await tracking.getByLabel("Plain text only").isChecked(), true);
  assert.equal(await tracking.getByLabel(/^Track opens/).isDisabled(), true, "plain text has no pixel");
  assert.equal(await tracking.getByLabel("Track clicks").isChecked(), false);
  await page.getByTestId("tracking-cost").getByText("the open pixel is an image spam filters count against a short email", { exact: false }).waitFor();
  await tracking.getByLabel("Track clicks").check();
  await page.getByTestId("toast").getByText("Clicks are tracked").waitFor();
  assert.equal((await stored()).trackClicks, true);
  await tracking.getByLabel("Track clicks").uncheck();
  await page.getByTestId("toast").getByText("Links stay as written").waitFor();
  assert.equal((await stored()).trackClicks, false);

  // Step 6: the pre-launch check scores the first message; at 5 or more Send Now waits for a confirmation.
  await page.getByRole("button", { name: "Go To Step 6" }).click();
  await page.getByRole("heading", { name: "STEP 6 OUT OF 6: Test and Launch" }).waitFor();
  const check = page.getByTestId("launch-check");
  await check.getByTestId("spam-check").getByText("this email looks like spam", { exact: false }).waitFor();
  await check.getByText("BUILTIN_SHORTENER", { exact: false }).first().waitFor();
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByTestId("spam-check").waitFor();
  const sendNow = dialog.getByRole("button", { name: "Send Now" });
  assert.equal(await sendNow.isDisabled(), true, "a spammy email waits for the user's confirmation");
  await dialog.getByLabel("Send anyway: I have read the spam check").check();
  assert.equal(await sendNow.isDisabled(), false);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // A/B variants: the template's edit dialog adds variant B; the server's refusal names its field.
  await api("PUT", `/api/email-templates/${template.id}`, { name: "Spammy", subject: "Hello {{businessName}}", body: "<p>Hi [business name]</p>" });
  await page.reload();
  await page.getByRole("tab", { name: "Email Templates" }).click();
  await page.getByRole("article", { name: "Spammy" }).getByRole("button", { name: "Edit" }).click();
  const editor = page.getByRole("dialog", { name: "Edit template" });
  const variants = editor.getByRole("group", { name: "A/B variants" });
  await variants.getByRole("button", { name: "Add variant B" }).click();
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await variants.getByText("Subject is required").waitFor();
  await variants.getByLabel("Subject of variant B").fill("Question for {{businessName}}");
  await variants.getByRole("textbox", { name: "Body of variant B" }).click();
  await page.keyboard.type("A quick question for you");
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await page.getByTestId("toast").getByText("Template updated").waitFor();
  const saved = (await api("GET", "/api/email-templates")).find((row) => row.id === template.id);
  assert.equal(saved.variants[0].subject, "Question for {{businessName}}");

  // Launched, the recipients are split evenly; the analytics page shows the variants and takes a pick by hand.
  const launched = await api("POST", "/api/campaigns/send", { campaignId: campaign.id, templateId: template.id, businessIds: ids });
  assert.equal(launched.emailsSent, 4);
  let figures = [];
  for (let tries = 0; tries < 100; tries++) {
    figures = await api("GET", `/api/campaigns/${campaign.id}/variants`);
    if (figures.reduce((sum, row) => sum + row.sent, 0) === 4) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(figures.map((row) => [row.label, row.sent]), [["A", 2], ["B", 2]]);
  await page.goto(`${app.base}/campaign-analytics/${campaign.id}`);
  const table = page.getByRole("region", { name: "Variants of the first email" }).or(page.getByLabel("Variants of the first email"));
  await table.getByText("No winner yet", { exact: false }).waitFor();
  await table.getByRole("button", { name: "Pick B" }).click();
  await page.getByTestId("variant-winner").getByText("Variant B won", { exact: false }).waitFor();
  await page.getByTestId("variant-winner").getByText("B picked by you", { exact: false }).waitFor();
  assert.equal((await api("GET", `/api/campaigns/${campaign.id}/variants`))[1].winner, true);
  await page.getByText("not tracked").first().waitFor();
  await page.close();
});
