// Analytics and contacts in the browser: a campaign sent through the local outbox gets provider events (deliveries,
// opens, a click, a bounce, a spam report; signed like SendGrid's Event Webhook) and a reply typed in the app; the
// analytics tab, /campaign-analytics/{id} (tiles, table, email dialog, Mark Opened), /campaign-details/{id} and the
// contacts tab (stats, badges, search, history, notes) show what happened.
import assert from "node:assert/strict";
import { generateKeyPairSync, sign } from "node:crypto";
import { after, before, test } from "node:test";
import { ADMIN, signIn, startStack } from "./support.mjs";

const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
let stack;

before(async () => {
  stack = await startStack({
    OUTREACH_SENDGRID__WEBHOOK_PUBLIC_KEY: keys.publicKey.export({ type: "spki", format: "der" }).toString("base64"),
  });
});

after(async () => {
  await stack?.stop();
});

/** Posts events as SendGrid does: an ECDSA signature over timestamp + body. */
async function postEvents(app, events) {
  const body = JSON.stringify(events);
  const stamp = String(Math.floor(Date.now() / 1000));
  const signature = sign("sha256", Buffer.from(stamp + body), keys.privateKey).toString("base64");
  const response = await fetch(`${app.base}/api/webhooks/sendgrid/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "X-Twilio-Email-Event-Webhook-Signature": signature,
      "X-Twilio-Email-Event-Webhook-Timestamp": stamp,
    },
    body,
  });
  assert.equal(response.status, 200, await response.text());
}

test("a campaign's sends, opens, click, reply and bounce show on the analytics pages and in contacts", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  const api = page.request;

  // Empty state first.
  await page.getByRole("tab", { name: "Campaign Analytics" }).click();
  await page.getByRole("button", { name: "Build Your First Campaign" }).waitFor();

  const template = await (await api.post(`${app.base}/api/email-templates`, { data: {
    name: "Intro", subject: "Bread for {{businessName}}", objective: "Partnership Proposal", tone: "friendly", emailSignature: "Grace",
    body: "<p>Hello [business name], see <a href=\"https://bakery.example/menu\">our menu</a>.</p>",
  } })).json();
  const leads = "name,email\nCafe Aalto,owner@aalto.example\nKahvila Kuu,kuu@kuu.example\nRye Deli,deli@rye.example\nSpam Shop,shop@spam.example\n";
  const imported = await (await api.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await (await api.post(`${app.base}/api/campaigns`, { data: { name: "Bakery launch" } })).json();
  // New campaigns send plain text without tracking (issue 81); this one tracks opens and clicks, as campaigns sent
  // before did.
  await api.put(`${app.base}/api/campaigns/${campaign.id}`, { data: { plainText: false, trackOpens: true, trackClicks: true } });
  await api.post(`${app.base}/api/campaigns/send`, { data: { campaignId: campaign.id, templateId: template.id, businessIds: imported.businesses.map((b) => b.id) } });
  for (let attempt = 0; attempt < 200; attempt++) {
    const progress = await (await api.get(`${app.base}/api/campaigns/${campaign.id}/progress`)).json();
    if (progress.status === "completed") break;
    await new Promise((done) => setTimeout(done, 100));
  }
  const outbox = await (await api.get(`${app.base}/api/outbox`)).json();
  const message = (email) => outbox.find((m) => m.toEmail === email);
  const now = Math.floor(Date.now() / 1000);
  await postEvents(app, [
    { event: "delivered", outreach_message: message("owner@aalto.example").messageId, timestamp: now },
    { event: "open", outreach_message: message("owner@aalto.example").messageId, timestamp: now + 30 },
    { event: "click", url: "https://bakery.example/menu", outreach_message: message("owner@aalto.example").messageId, timestamp: now + 40 },
    { event: "bounce", type: "bounce", reason: "550 5.1.1 mailbox unknown", outreach_message: message("deli@rye.example").messageId, timestamp: now },
    { event: "delivered", outreach_message: message("shop@spam.example").messageId, timestamp: now },
    { event: "spamreport", outreach_message: message("shop@spam.example").messageId, timestamp: now + 60 },
  ]);
  const replied = await api.post(`${app.base}/api/outbox/${message("kuu@kuu.example").id}/reply`, { data: { body: "Sounds good, call me" } });
  assert.equal(replied.status(), 200);

  // The analytics list: the card with sent (and failed beside it), opened and replies.
  await page.getByRole("button", { name: "Refresh Data" }).click();
  const card = page.getByTestId("campaign-card").filter({ hasText: "Bakery launch" });
  await card.getByText("4 (1 failed)").waitFor();
  await page.getByTestId("activity-charts").waitFor();
  await page.getByRole("tab", { name: "Sent Emails" }).click();
  await page.getByRole("cell", { name: "kuu@kuu.example" }).waitFor();
  await page.getByRole("tab", { name: "Campaigns" }).click();

  // /campaign-analytics/{id}: five tiles of sent, the table, the dialog and Mark Opened.
  await card.getByRole("link", { name: "Bakery launch" }).click();
  await page.waitForURL(`${app.base}/campaign-analytics/${campaign.id}`);
  await page.getByRole("heading", { name: "Bakery launch" }).waitFor();
  assert.match(await page.getByTestId("tile-Total Emails").innerText(), /Total Emails\s+4$/);
  assert.match(await page.getByTestId("tile-Emails Sent").innerText(), /4\s+1 failed/);
  assert.match(await page.getByTestId("tile-Opened").innerText(), /25%/);
  assert.match(await page.getByTestId("tile-Clicked").innerText(), /25%/);
  assert.match(await page.getByTestId("tile-Replied").innerText(), /25%/);
  const row = (email) => page.getByRole("row").filter({ hasText: email });
  assert.match(await row("deli@rye.example").innerText(), /Bounced[\s\S]*Yes/);
  // The dialog says why a bounce came back, as the details page does (issue 83.14).
  await row("deli@rye.example").click();
  await page.getByRole("dialog", { name: "Email to deli@rye.example" }).getByText("(550 5.1.1 mailbox unknown)", { exact: false }).waitFor();
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await row("kuu@kuu.example").click();
  const dialog = page.getByRole("dialog", { name: "Email to kuu@kuu.example" });
  await dialog.getByText("Replied: Yes").waitFor();
  assert.equal(await dialog.getByRole("button", { name: "Mark Opened" }).count(), 0, "a replied email is not offered Mark Opened");
  await dialog.getByRole("button", { name: "Close" }).click();
  await row("shop@spam.example").click();
  assert.equal(await page.getByRole("dialog").getByRole("button", { name: "Mark Opened" }).count(), 0, "a delivered email has a status past sent");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  // Mark Opened on a plain sent email (a fifth recipient added to the campaign): recorded, and the page reloads.
  const fresh = await (await api.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "more.csv", mimeType: "text/csv", buffer: Buffer.from("name,email\nQuiet Cafe,quiet@cafe.example\n") } } })).json();
  await api.post(`${app.base}/api/campaigns/send`, { data: { campaignId: campaign.id, templateId: template.id, businessIds: [fresh.businesses[0].id] } });
  for (let attempt = 0; attempt < 200; attempt++) {
    const progress = await (await api.get(`${app.base}/api/campaigns/${campaign.id}/progress`)).json();
    if (progress.status === "completed") break;
    await new Promise((done) => setTimeout(done, 100));
  }
  await page.reload();
  await row("quiet@cafe.example").click();
  const quiet = page.getByRole("dialog", { name: "Email to quiet@cafe.example" });
  const frame = quiet.frameLocator("iframe[title='Message body']");
  await frame.getByText("Hello Quiet Cafe", { exact: false }).waitFor();
  await quiet.getByRole("button", { name: "Mark Opened" }).click();
  await page.waitForLoadState("load");
  await page.getByTestId("tile-Opened").getByText("40%").waitFor();

  // /campaign-details/{id}: eight tiles and each contact with its engagement badge.
  await page.goto(`${app.base}/campaign-details/${campaign.id}`);
  await page.getByTestId("tile-Total Clicks").getByText("1").waitFor();
  assert.match(await page.getByTestId("tile-Bounced").innerText(), /1\s+20% bounce rate/);
  assert.match(await page.getByTestId("tile-Spam").innerText(), /1/);
  const contact = (email) => page.getByTestId("campaign-contact").filter({ hasText: email });
  await contact("owner@aalto.example").getByText("Clicked", { exact: true }).waitFor();
  await contact("owner@aalto.example").getByRole("list", { name: "Clicked links" }).getByText("https://bakery.example/menu").waitFor();
  await contact("deli@rye.example").getByText("Issues").waitFor();
  await contact("deli@rye.example").getByText("550 5.1.1 mailbox unknown", { exact: false }).waitFor();
  await contact("quiet@cafe.example").getByText("Opened", { exact: true }).waitFor();
  // A reply outranks the rest and shows with its time (it was badged 'Sent' with no reply shown).
  await contact("kuu@kuu.example").getByText("Replied", { exact: true }).waitFor();
  await contact("kuu@kuu.example").getByText("Replied:").waitFor();

  // Missing and foreign campaigns.
  await page.goto(`${app.base}/campaign-analytics/999999`);
  await page.getByRole("heading", { name: "Campaign Not Found" }).waitFor();
  await page.getByRole("button", { name: "Back to Campaigns" }).click();
  await page.waitForURL(/tab=your-campaigns/);

  // Contacts: stats, badges by B §4's precedence, search, filter, history and notes.
  await page.getByRole("tab", { name: "Contacts" }).click();
  await page.getByTestId("tile-Contacted").getByText("5", { exact: true }).waitFor();
  const badge = (email) => page.getByRole("row").filter({ hasText: email });
  await badge("deli@rye.example").getByText("Bounced").waitFor();
  await badge("shop@spam.example").getByText("Spam Report").waitFor();
  await badge("kuu@kuu.example").getByText("Replied").waitFor();
  assert.ok((await badge("kuu@kuu.example").getByText("Interested", { exact: true }).count()) <= 1, "an interest badge shows once (issue 83.16)");
  await badge("owner@aalto.example").getByText("Opened").waitFor();
  await page.getByLabel("Status").selectOption("Replied");
  assert.equal(await page.getByRole("row").count(), 2, "the header and Kahvila Kuu");
  await page.getByLabel("Status").selectOption("all");
  await page.getByLabel("Search").fill("aalto");
  assert.equal(await page.getByRole("row").count(), 2);
  await page.getByLabel("Search").fill("");
  await badge("kuu@kuu.example").click();
  const details = page.getByRole("dialog", { name: "Kahvila Kuu" });
  await details.getByRole("list", { name: "History" }).getByText("Reply received", { exact: false }).waitFor();
  await details.getByText("Sounds good, call me").waitFor();
  await details.getByLabel("Add a note").fill("Call back on Monday");
  await details.getByRole("button", { name: "Add Note" }).click();
  await details.getByRole("list", { name: "Notes" }).getByText("Call back on Monday").waitFor();
  await details.getByRole("button", { name: "Edit" }).click();
  await details.getByLabel("Edit note").fill("Meeting booked for Friday");
  await details.getByRole("button", { name: "Save" }).click();
  await details.getByRole("list", { name: "Notes" }).getByText("Meeting booked for Friday").waitFor();

  // A business without an address is skipped, badged so and said why, never 'Sent' with a blank recipient; the
  // outbox reports no deliveries, so the tile says so instead of 0%.
  const noMail = await (await api.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "more.csv", mimeType: "text/csv", buffer: Buffer.from("name,email,phone\nNo Mail Deli,,+358 40 123\nLate Cafe,late@cafe.example,\n") } } })).json();
  const second = await (await api.post(`${app.base}/api/campaigns`, { data: { name: "Second round" } })).json();
  await api.post(`${app.base}/api/campaigns/send`, { data: { campaignId: second.id, templateId: template.id, businessIds: noMail.businesses.map((b) => b.id) } });
  for (let attempt = 0; attempt < 200; attempt++) {
    const progress = await (await api.get(`${app.base}/api/campaigns/${second.id}/progress`)).json();
    if (progress.status === "completed") break;
    await new Promise((done) => setTimeout(done, 100));
  }
  await page.goto(`${app.base}/campaign-details/${second.id}`);
  const skipped = page.getByTestId("campaign-contact").filter({ hasText: "No Mail Deli" });
  await skipped.getByText("Skipped", { exact: true }).waitFor();
  await skipped.getByText("No email address · +358 40 123").waitFor();
  await skipped.getByText("Not sent:", { exact: false }).waitFor();
  await page.getByTestId("tile-Delivered").getByText("Not reported: only SendGrid senders report deliveries").waitFor();
  // The analytics page's dialog of the skipped email says why too, in the same words (issue 83.14).
  const reason = (await skipped.getByText("Not sent:", { exact: false }).innerText()).trim();
  await page.goto(`${app.base}/campaign-analytics/${second.id}`);
  await page.getByRole("row").filter({ hasText: "Skipped" }).click();
  await page.getByRole("dialog").getByText(reason, { exact: true }).waitFor();
  await page.close();
});
