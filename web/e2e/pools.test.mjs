// Browser test of mailbox pools (issue 79): step 5 with two SMTP senders picked together (what they can send today),
// the pre-launch check's capacity, and the progress of step 6 and the campaign's details listing each sender with what
// it sent, today's cap and its state; each sender's card in Email Settings with today's cap.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MEMBER, apiOf, grantPremium, signIn, startSmtpSink, startStack, waitFor } from "./support.mjs";

let stack;
let app;
let browser;
let sinks = [];

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
  sinks = [await startSmtpSink(), await startSmtpSink()];
});

after(async () => {
  for (const sink of sinks) sink.stop();
  await stack?.stop();
});

test("a campaign sent from two mailboxes: picked in step 5, each sender's share in the progress", async () => {
  await grantPremium(stack, MEMBER);
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = apiOf(app, page);
  await api("PUT", "/api/user/profile", { postalAddress: "Bakery Street 1, 00100 Helsinki" });
  const senders = [];
  for (const [index, sink] of sinks.entries()) {
    const saved = await api("POST", "/api/user/email-config", {
      emailProvider: "smtp", emailSendFrom: `mailbox${index + 1}@bakery.example`, emailSendFromName: "Ada Baker",
      smtpHost: "127.0.0.1", smtpPort: sink.port, smtpSecurity: "none", dailyCap: 2, rampUp: false,
    });
    senders.push(saved.config);
  }
  const template = await api("POST", "/api/email-templates", { name: "Intro", subject: "Hello {{businessName}}", body: "<p>Hi [business name]</p>" });
  const leads = ["name,email", ...[1, 2, 3].map((n) => `Cafe ${n},owner${n}@cafe${n}.example`)].join("\n");
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("POST", "/api/campaigns", { name: "Pooled" });
  await api("PUT", `/api/campaigns/${campaign.id}`, { businessIds: imported.businesses.map((business) => business.id), status: "businesses_selected", builderStep: 4 });
  await api("PUT", `/api/campaigns/${campaign.id}`, { templateId: template.id, status: "template_selected", builderStep: 5 });

  // Step 5: the default sender, and the second one added to the pool; together they send 4 today.
  await page.goto(`${app.base}/dashboard`);
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("button", { name: /^Pooled/ }).click();
  await page.getByTestId("campaign-ready").getByRole("button", { name: "Continue at Step 5: Sender Configuration" }).click();
  await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();
  const fromAddress = page.getByTestId("from-address");
  await fromAddress.getByText("mailbox1@bakery.example", { exact: false }).waitFor();
  const poolSaved = page.waitForResponse((response) => response.request().method() === "PUT" && response.url().endsWith(`/api/campaigns/${campaign.id}`));
  await page.getByRole("group", { name: "Also send from" }).getByLabel(/mailbox2@bakery\.example/).check();
  assert.equal((await poolSaved).status(), 200);
  await fromAddress.getByText("These 2 senders can send 4 emails today", { exact: false }).waitFor();
  assert.deepEqual((await api("GET", `/api/campaigns/${campaign.id}`)).emailConfigIds, [senders[0].id, senders[1].id]);

  // Step 6: the check says what the pool sends and when; the launch goes out from both.
  await page.getByRole("button", { name: "Go To Step 6" }).click();
  await page.getByRole("heading", { name: "STEP 6 OUT OF 6: Test and Launch" }).waitFor();
  await page.getByTestId("launch-capacity").getByText("Your senders can send 4 emails today: 3 emails go out today.").waitFor();
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  await page.getByRole("dialog", { name: "Launch campaign" }).getByRole("button", { name: "Send Now" }).click();
  const table = page.getByTestId("send-progress").getByRole("table", { name: "Senders" });
  const row = (address) => table.getByRole("row").filter({ hasText: address });
  await row("mailbox1@bakery.example").getByText("At today's cap", { exact: false }).waitFor();
  await row("mailbox2@bakery.example").getByText("1 of 2").waitFor();
  const received = await waitFor(async () => {
    const counts = await Promise.all(sinks.map(async (sink) => (await sink.messages()).length));
    return counts[0] + counts[1] === 3 ? counts : null;
  }, "three emails");
  assert.deepEqual(received, [2, 1], "each email from the sender with the most room left");

  // The campaign's details list the senders too; Email Settings shows each one's day.
  await page.goto(`${app.base}/campaign-details/${campaign.id}`);
  await page.getByRole("table", { name: "Senders" }).getByRole("row").filter({ hasText: "mailbox2@bakery.example" }).waitFor();
  await page.goto(`${app.base}/dashboard?tab=email-settings`);
  const cards = page.getByRole("list", { name: "Email configurations" });
  await cards.getByRole("listitem").filter({ hasText: "mailbox1@bakery.example" }).getByText("2 of 2 sent today; its cap is 2 a day").waitFor();
  await page.close();
});
