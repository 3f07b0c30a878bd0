// Browser test of automations (issue 21) on the offline directory (the Helsinki extract): the Create Automation
// dialog with the spec's messages, Run Now through an SMTP sender to Postfix's smtp-sink (the result toast), the run
// in Automation Reports with the automation's figures, its emails as a campaign in Campaign Analytics, Pause and
// Start, and the Test Automation tab sending only to the test address.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { OSM_EXTRACT } from "./server.mjs";
import { ADMIN, MEMBER, signIn, startSmtpSink, startStack } from "./support.mjs";


let stack;
let sink;

const sinkMessages = () => sink.messages();

before(async () => {
  sink = await startSmtpSink();
  stack = await startStack({}, { osmExtract: OSM_EXTRACT });
  const admin = await stack.browser.newPage();
  await signIn(stack.app, admin, ADMIN);
  const granted = await admin.request.post(`${stack.app.base}/api/admin/set-user-status`, { data: { email: MEMBER.email, status: "premium", emailLimit: 100 } });
  assert.equal(granted.status(), 200);
  await admin.close();
});

after(async () => {
  await stack?.stop();
  sink?.stop();
});

test("an automation is created, run now to an SMTP server, reported, and its emails are a campaign's", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = async (method, path, data) => {
    const response = await page.request.fetch(`${app.base}${path}`, { method, data });
    assert.ok(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  await api("PUT", "/api/user/profile", { postalAddress: "Bakery Street 1, 00100 Helsinki" });
  await api("POST", "/api/user/email-config", {
    emailProvider: "smtp", emailSendFrom: "ada@bakery.example", emailSendFromName: "Ada Baker",
    smtpHost: "127.0.0.1", smtpPort: sink.port, smtpSecurity: "none",
  });
  await api("POST", "/api/email-templates", { name: "Lunch bread", subject: "Bread for {{businessName}}", body: "<p>Hello [business name]</p>" });

  await page.goto(`${app.base}/dashboard?tab=automation`);
  await page.getByText("No automations yet.", { exact: false }).waitFor();
  await page.getByRole("button", { name: "Create Automation" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Automation" });
  assert.equal(await dialog.getByLabel("Radius (miles)").inputValue(), "25");
  assert.equal(await dialog.getByLabel("Businesses a day").inputValue(), "10");
  await dialog.getByRole("button", { name: "Create Automation" }).click();
  await dialog.getByRole("alert").getByText("Campaign name is required").waitFor();
  await dialog.getByLabel("Campaign name").fill("Helsinki restaurants");
  await dialog.getByLabel("Business type").fill("restaurant");
  await dialog.getByLabel("Geographic area").fill("Helsinki");
  await dialog.getByRole("button", { name: "Create Automation" }).click();
  await dialog.getByRole("alert").getByText("Please select an email template").waitFor();
  await dialog.getByLabel("Email template").selectOption({ label: "Lunch bread" });
  await dialog.getByLabel("Radius (miles)").fill("5");
  await dialog.getByLabel("Businesses a day").fill("2");
  await dialog.getByRole("button", { name: "Create Automation" }).click();
  await page.getByTestId("toast").getByText("Automation created").waitFor();
  const card = page.getByTestId("automation-card").filter({ hasText: "Helsinki restaurants" });
  await card.getByText("restaurant within 5 miles of Helsinki · 2 a day · Daily").waitFor();
  await card.getByText("Last run: never", { exact: false }).waitFor();

  const before = (await sinkMessages()).length;
  await card.getByRole("button", { name: "Run Now" }).click();
  await page.getByTestId("toast").getByText("Automation run complete").waitFor({ timeout: 60_000 });
  await page.getByTestId("toast").getByText("2 sent, 0 failed", { exact: false }).waitFor();
  assert.equal((await sinkMessages()).length, before + 2, "two restaurants emailed through SMTP");
  await card.getByText("2 sent", { exact: false }).waitFor();

  // Pause and Start.
  await card.getByRole("button", { name: "Pause" }).click();
  await page.getByTestId("toast").getByText("Automation paused").waitFor();
  await card.getByText("Paused").waitFor();
  await card.getByRole("button", { name: "Start" }).click();
  await page.getByTestId("toast").getByText("Automation started").waitFor();

  // Automation Reports and Campaign Analytics.
  await page.goto(`${app.base}/dashboard?tab=your-campaigns`);
  await page.getByRole("tab", { name: "Automation Reports" }).click();
  const row = page.getByRole("table", { name: "Automation runs" }).getByRole("row").filter({ hasText: "Helsinki restaurants" });
  await row.getByText("Completed").waitFor();
  await row.getByText("Run now").waitFor();
  await page.getByTestId("automation-figures").filter({ hasText: "Helsinki restaurants" }).getByText("2 sent", { exact: false }).waitFor();
  await page.getByRole("tab", { name: "Campaigns" }).click();
  await page.getByText("Helsinki restaurants").first().waitFor();
  await page.close();
});

test("the Test Automation tab sends the template to the test address only", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  await page.goto(`${app.base}/dashboard?tab=test`);
  const form = page.getByLabel("Automation test");
  await form.getByLabel("Test email address").fill("me@test.example");
  await form.getByLabel("Number of test emails").fill("6");
  await form.getByRole("button", { name: "Send Test Emails" }).click();
  await form.getByRole("alert").getByText("Quantity must be between 1 and 5").waitFor();
  await form.getByLabel("Number of test emails").fill("1");
  await form.getByLabel("Email template").selectOption({ label: "Lunch bread" });
  const before = (await sinkMessages()).length;
  await form.getByRole("button", { name: "Send Test Emails" }).click();
  await page.getByTestId("toast").getByText("Test emails sent").waitFor();
  await form.getByRole("status").getByText("Sample Business 1 (made up for this test)", { exact: false }).waitFor();
  await form.getByRole("status").getByText("a reply read with 85% certainty or more is answered at once", { exact: false }).waitFor();
  const after = await sinkMessages();
  assert.equal(after.length, before + 1);
  assert.equal(after.filter((message) => message.includes("<me@test.example>")).length, 1, "to the test address only");
  await page.close();
});
