// Browser test of the controls over a launched campaign on its analytics page: a campaign paused at the monthly limit
// is resumed (and pauses again, still without room), then stopped after a confirmation, which skips what is left.
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

async function progressOf(page, id) {
  return (await page.request.get(`${app.base}/api/campaigns/${id}/progress`)).json();
}

async function until(check) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the condition never held");
}

test("a campaign paused at its limit is resumed, then stopped, from its analytics page", async () => {
  // Ada may send one email this month.
  const admin = await browser.newPage();
  await signIn(app, admin, ADMIN);
  const member = await browser.newPage();
  await signIn(app, member, MEMBER);
  const granted = await admin.request.post(`${app.base}/api/admin/set-user-status`, { data: { email: MEMBER.email, status: "premium", emailLimit: 1 } });
  assert.equal(granted.status(), 200);
  await admin.close();

  const page = member;
  const api = (path, data) => page.request.post(`${app.base}${path}`, { data }).then((response) => response.json());
  const template = await api("/api/email-templates", { name: "Intro", subject: "Hello", body: "<p>Hi</p>" });
  const leads = "name,email\nCafé Aalto,owner@aalto.example\nKahvila Kuu,kuu@kuu.example\nDeli,deli@deli.example\n";
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("/api/campaigns", { name: "Spring" });
  await api("/api/campaigns/send", { campaignId: campaign.id, templateId: template.id, businessIds: imported.businesses.map((business) => business.id) });
  await until(async () => (await progressOf(page, campaign.id)).status === "paused");

  // The campaign's card in Campaign Analytics offers the controls its status allows.
  await page.goto(`${app.base}/dashboard`);
  await page.getByRole("tab", { name: "Campaign Analytics" }).click();
  const card = page.getByTestId("campaign-card").filter({ hasText: "Spring" });
  await card.getByRole("group", { name: "Campaign controls" }).getByRole("button", { name: "Resume" }).waitFor();
  assert.equal(await card.getByRole("button", { name: "Pause" }).count(), 0);

  await page.goto(`${app.base}/campaign-analytics/${campaign.id}`);
  const controls = page.getByRole("group", { name: "Campaign controls" });
  await page.getByText("Paused: the monthly email limit is reached.", { exact: false }).first().waitFor();
  assert.equal(await controls.getByRole("button", { name: "Pause" }).count(), 0, "a paused campaign offers Resume");

  // Resumed: still no room this month, so it pauses again for the limit.
  await controls.getByRole("button", { name: "Resume" }).click();
  await page.getByTestId("toast").getByText("Campaign resumed").waitFor();
  await until(async () => {
    const progress = await progressOf(page, campaign.id);
    return progress.status === "paused" && progress.statusReason?.includes("monthly email limit");
  });

  // Stopped after the confirmation: what was left is skipped, with why, and the controls go.
  await page.reload();
  await controls.getByRole("button", { name: "Stop" }).click();
  const dialog = page.getByRole("dialog", { name: "Stop campaign" });
  await dialog.getByText("The emails not sent yet will not be sent.", { exact: false }).waitFor();
  await dialog.getByRole("button", { name: "Stop Campaign" }).click();
  await page.getByTestId("toast").getByText("Stopped by you: 2 emails were not sent.").waitFor();
  await controls.waitFor({ state: "detached" });
  const progress = await progressOf(page, campaign.id);
  assert.deepEqual([progress.status, progress.progress.sent, progress.progress.skipped, progress.progress.queued], ["completed", 1, 2, 0]);
  await page.close();
});
