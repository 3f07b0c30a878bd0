// Browser test of the Inbox tab (issue 34): a campaign sent through an SMTP sender to Postfix's smtp-sink; the
// prospect's reply arrives through SendGrid's Inbound Parse and is a conversation in the inbox, unread, with the AI's
// reading; the keyboard opens it (which marks it read), the AI drafts an answer that the user edits and sends, and
// it arrives at the SMTP server in the thread; a label shows on the list; and the page works on a 390 px phone.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, signIn, startSmtpSink, startStack, waitFor } from "./support.mjs";

let stack;
let sink;

before(async () => {
  sink = await startSmtpSink();
  stack = await startStack({ OUTREACH_SENDGRID__INBOUND_SECRET: "in-secret" });
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

test("a reply is a conversation in the inbox, answered from it in the thread and labelled, also on a phone", async () => {
  const { app, browser } = stack;
  const context = await browser.newContext();
  const page = await context.newPage();
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
  const template = await api("POST", "/api/email-templates", { name: "Intro", subject: "Rye for {{businessName}}", body: "<p>Hi [business name]</p>" });
  const leads = "name,email\nCafe Koivu,owner@koivu.example\n";
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const campaign = await api("POST", "/api/campaigns", { name: "Rye mornings" });
  await api("PUT", `/api/campaigns/${campaign.id}`, { aiEducationText: "We bake rye every night. Deliveries arrive before the cafe opens." });
  await api("POST", "/api/campaigns/send", { campaignId: campaign.id, templateId: template.id, businessIds: [imported.businesses[0].id] });
  const first = await waitFor(async () => (await sink.messages()).find((message) => message.includes("Subject: Rye for Cafe Koivu")), "the first email");
  const firstId = first.match(/^Message-ID: <([^>]+)>/im)[1];

  await page.goto(`${app.base}/dashboard?tab=inbox`);
  await page.waitForFunction(() => document.title === "Inbox · AI Outreach Agent");
  await page.getByText("No conversations here.", { exact: false }).waitFor();

  // The prospect answers by mail: the conversation shows within the list's next refresh, unread, with its reading.
  const raw = `From: owner@koivu.example\r\nTo: ada@bakery.example\r\nSubject: Re: Rye for Cafe Koivu\r\nMessage-ID: <reply-1@koivu.example>\r\nIn-Reply-To: <${firstId}>\r\n\r\nSounds good! Do your deliveries arrive before seven?\r\n`;
  const form = new FormData();
  form.set("to", "ada@bakery.example");
  form.set("email", raw);
  const parsed = await (await fetch(`${app.base}/api/webhooks/sendgrid/inbound/in-secret`, { method: "POST", body: form })).json();
  assert.deepEqual(parsed, { matched: true, kind: "reply" });
  await waitFor(async () => (await api("GET", "/api/inbox/threads")).threads[0]?.reading, "the reply read");
  await page.reload();
  const item = page.getByTestId("inbox-thread").filter({ hasText: "owner@koivu.example" });
  await item.getByText("Unread:", { exact: false }).waitFor();
  await item.getByText("deliveries arrive before seven", { exact: false }).waitFor();
  await item.getByText("Answer waiting for approval").waitFor();

  // j selects it, Enter opens it: every message in order, the reply with the AI's reading; now read.
  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  const conversation = page.getByRole("article", { name: "Conversation with owner@koivu.example" });
  await conversation.getByTestId("thread-message").first().waitFor();
  const kinds = await conversation.getByTestId("thread-message").evaluateAll((items) => items.map((element) => element.dataset.kind));
  assert.deepEqual(kinds, ["first", "reply"]);
  await conversation.getByLabel("The AI's reading").waitFor();
  await conversation.getByTestId("waiting-answer").waitFor();
  await item.getByText("Unread:", { exact: false }).waitFor({ state: "detached" });

  // r goes to the reply box; the AI drafts, the user edits and sends: it arrives in the thread.
  await page.keyboard.press("r");
  const box = conversation.getByLabel("Answer owner@koivu.example");
  await waitFor(async () => box.evaluate((element) => element === document.activeElement), "the reply box focused");
  await conversation.getByRole("button", { name: "Draft with AI" }).click();
  await waitFor(async () => (await box.inputValue()).includes("before the cafe opens"), "the AI's draft in the box");
  await box.fill("Hello,\n\nYes, our deliveries arrive at half past six.\n\nAda");
  await conversation.getByRole("button", { name: "Send answer" }).click();
  await page.getByTestId("toast").getByText("Answer sent").waitFor();
  const sent = await waitFor(async () => (await sink.messages()).find((message) => message.includes("arrive at half past six")), "the answer at the SMTP server");
  assert.match(sent, /To: owner@koivu\.example/);
  assert.match(sent, /Subject: Re: Rye for Cafe Koivu/);
  assert.match(sent, /In-Reply-To: <reply-1@koivu\.example>/);
  assert.match(sent, new RegExp(`References: <${firstId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}> <reply-1@koivu\\.example>`));
  await conversation.locator('[data-kind="answer"]').getByText("Answer #1").waitFor();

  // A label shows on the list and filters it.
  await conversation.getByLabel("Label").selectOption("meeting_booked");
  await item.getByText("Meeting booked").waitFor();
  await page.getByLabel("Label", { exact: true }).first().selectOption("meeting_booked");
  await item.waitFor();
  await context.close();

  // On a 390 px phone: the list, then the conversation in its place, and back.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const small = await phone.newPage();
  await signIn(app, small, MEMBER);
  await small.goto(`${app.base}/dashboard?tab=inbox`);
  const phoneItem = small.getByTestId("inbox-thread").filter({ hasText: "owner@koivu.example" });
  await phoneItem.click();
  const phoneConversation = small.getByRole("article", { name: "Conversation with owner@koivu.example" });
  await phoneConversation.getByRole("button", { name: "Send answer" }).waitFor();
  assert.equal(await phoneItem.isVisible(), false, "the conversation takes the list's place");
  const width = await small.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `nothing wider than the phone: ${width}px`);
  await phoneConversation.getByRole("button", { name: "Back to the list" }).click();
  await phoneItem.waitFor();
  await phone.close();
});
