// Browser test of the Follow-up Manager and Follow-up Analytics: a campaign whose two prospects opened their first
// email has their follow-ups scheduled two days on, each with its first email and a Test that goes to the user's
// address; the analytics page starts empty; both pages are reached from the app's header; stopping one prospect's
// follow-ups from the campaign's details takes them off the manager. A follow-up made due (its open moved three days
// back in the database, as no test can wait days) goes out with Send All and shows on Follow-up Analytics and in the
// Follow-ups tab of Campaign Analytics. (The timing rules run on a fixed clock in the API tests.)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
  const admin = await browser.newPage();
  await signIn(app, admin, ADMIN);
  const granted = await admin.request.post(`${app.base}/api/admin/set-user-status`, { data: { email: MEMBER.email, status: "premium", emailLimit: 100 } });
  assert.equal(granted.status(), 200);
  await admin.close();
});

after(async () => stack?.stop());

test("the manager lists scheduled follow-ups and tests one; the analytics page starts empty", async () => {
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = async (method, path, data) => (await page.request.fetch(`${app.base}${path}`, { method, data })).json();
  const template = await api("POST", "/api/email-templates", { name: "Intro", subject: "Bread for {{businessName}}", body: "<p>Hi [business name]</p>" });
  await api("PUT", `/api/follow-up-templates/sequence/${template.id}`, [{ subject: "Checking in, {{businessName}}", body: "<p>Any thoughts?</p>", delayDays: 2 }]);
  const leads = "name,email\nCafe Aalto,a@cafe.example\nKahvila Kuu,k@cafe.example\n";
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("POST", "/api/campaigns", { name: "Autumn" });
  await api("POST", "/api/campaigns/send", { campaignId: campaign.id, templateId: template.id, businessIds: imported.businesses.map((business) => business.id) });
  let outbox = [];
  for (let attempt = 0; attempt < 100 && outbox.length < 2; attempt += 1) {
    outbox = await api("GET", "/api/outbox");
    if (outbox.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const message of outbox) await api("POST", `/api/emails/${message.id}/mark-opened`, {});

  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Follow-ups" }).click();
  await page.waitForURL(`${app.base}/followup-cronjob`);
  await page.waitForFunction(() => document.title === "Follow-up Manager · AI Outreach Agent");
  const rows = page.getByTestId("pending-follow-up");
  await rows.first().waitFor();
  assert.equal(await rows.count(), 2);
  const aalto = rows.filter({ hasText: "a@cafe.example" });
  // Issue 33.4: the follow-up as the prospect will read it, not the template's placeholder.
  await aalto.getByText("Checking in, Cafe Aalto").waitFor();
  await aalto.getByText("Follow-up #1 · 2 days after open", { exact: false }).waitFor();
  await aalto.getByText("Future scheduled").waitFor();
  await aalto.getByText("Original email: Bread for Cafe Aalto", { exact: false }).waitFor();
  await page.getByTestId("pending-today").getByText("0").waitFor();
  assert.equal(await page.getByRole("button", { name: "Send All (0)" }).isDisabled(), true);

  // A test goes to the user's own address and is not the prospect's follow-up.
  await aalto.getByRole("button", { name: "Test" }).click();
  const dialog = page.getByRole("dialog", { name: "Test follow-up" });
  assert.equal(await dialog.getByLabel("Send the test to").inputValue(), MEMBER.email);
  await dialog.getByRole("button", { name: "Send Test" }).click();
  await page.getByTestId("toast").getByText("Test email sent!", { exact: true }).waitFor();
  // Issue 33.4: one test email is "1 test email", not "1 test emails".
  await page.getByTestId("toast").getByText("1 test email sent to ada@example.org", { exact: false }).waitFor();
  const tests = (await api("GET", "/api/outbox")).filter((message) => message.isTest);
  assert.deepEqual(tests.map((message) => [message.toEmail, message.subject]), [[MEMBER.email, "Checking in, Cafe Aalto"]]);
  assert.equal(await rows.count(), 2, "still both pending");

  await page.getByRole("link", { name: "Follow-up Analytics" }).click();
  await page.waitForURL(`${app.base}/followup-cronjob-analytics`);
  await page.getByText("No follow-up data yet").waitFor();
  await page.getByTestId("tile-Open Rate").getByText("0%").waitFor();

  // A prospect's follow-ups stopped by hand from the campaign's details: said on the contact, gone from the manager.
  await page.goto(`${app.base}/campaign-details/${campaign.id}`);
  const contact = page.getByTestId("campaign-contact").filter({ hasText: "a@cafe.example" });
  await contact.getByRole("button", { name: "Stop Follow-ups" }).click();
  await page.getByRole("dialog", { name: "Stop follow-ups" }).getByRole("button", { name: "Stop Follow-ups" }).click();
  await contact.getByText("Follow-ups stopped: Stopped by you").waitFor();
  await page.goto(`${app.base}/followup-cronjob`);
  await page.getByTestId("pending-follow-up").filter({ hasText: "k@cafe.example" }).waitFor();
  assert.equal(await page.getByTestId("pending-follow-up").count(), 1);
  await page.close();
});

test("Send All sends the follow-ups that are due; Follow-up Analytics and the Follow-ups tab list them", async () => {
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = async (method, path, data) => (await page.request.fetch(`${app.base}${path}`, { method, data })).json();
  const template = await api("POST", "/api/email-templates", { name: "Winter", subject: "Soup for {{businessName}}", body: "<p>Hi [business name]</p>" });
  await api("PUT", `/api/follow-up-templates/sequence/${template.id}`, [{ subject: "Still hungry, {{businessName}}?", body: "<p>Soup is on.</p>", delayDays: 3 }]);
  const leads = "name,email\nSoup Bar,soup@bar.example\n";
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("POST", "/api/campaigns", { name: "Winter" });
  await api("POST", "/api/campaigns/send", { campaignId: campaign.id, templateId: template.id, businessIds: [imported.businesses[0].id] });
  let first;
  for (let attempt = 0; attempt < 100 && !first; attempt += 1) {
    first = (await api("GET", "/api/outbox")).find((message) => message.toEmail === "soup@bar.example");
    if (!first) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await api("POST", `/api/emails/${first.id}/mark-opened`, {});
  // Three days pass for this prospect: the open is moved back in the database.
  execFileSync("sqlite3", ["-cmd", ".timeout 10000", app.database, `update sent_emails set opened_at = opened_at - 3 * 86400000 where id = ${first.id}; update follow_up_due set due_at = due_at - 3 * 86400000 where message_id = ${first.id}`]);

  await page.goto(`${app.base}/followup-cronjob`);
  const row = page.getByTestId("pending-follow-up").filter({ hasText: "soup@bar.example" });
  await row.getByText("Ready to send").waitFor();
  await page.getByRole("button", { name: "Send All (1)" }).click();
  await page.getByTestId("toast").getByText("Follow-up emails sent!").waitFor();
  await page.getByTestId("toast").getByText("1 processed").waitFor();
  await row.waitFor({ state: "detached" });
  const sent = (await api("GET", "/api/outbox")).filter((message) => message.subject === "Still hungry, Soup Bar?");
  assert.equal(sent.length, 1, "sent once");

  await page.getByRole("link", { name: "Follow-up Analytics" }).click();
  await page.getByTestId("tile-Total Sent").getByText("1").waitFor();
  await page.getByText("Still hungry, Soup Bar?").waitFor();
  await page.getByText("Not Opened").waitFor();

  await page.goto(`${app.base}/dashboard?tab=your-campaigns`);
  await page.getByRole("tab", { name: "Follow-ups" }).click();
  const table = page.getByRole("table", { name: "Sent follow-ups" });
  const line = table.getByRole("row").filter({ hasText: "soup@bar.example" });
  await line.getByText("Still hungry, Soup Bar?").waitFor();
  await line.getByText("Answers: Soup for Soup Bar").waitFor();
  assert.deepEqual(await line.getByRole("cell").allTextContents().then((cells) => cells.slice(-2)), ["No", "No"]);
  await page.close();
});
