// Browser test of the Inbox tab (issue 34): a campaign sent through an SMTP sender to Postfix's smtp-sink; the
// prospect's reply arrives through SendGrid's Inbound Parse and is a conversation in the inbox, unread, with the AI's
// reading; the keyboard opens it (which marks it read), the AI drafts an answer that the user edits and sends, and
// it arrives at the SMTP server in the thread; a label shows on the list; the keys work from a list item and from
// the tab; and the page works on a 390 px phone.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MEMBER, apiOf, campaignMailedToOneCafe, grantPremium, replyByMail, signIn, startSmtpSink, startStack, waitFor } from "./support.mjs";

let stack;
let sink;

before(async () => {
  sink = await startSmtpSink();
  stack = await startStack({ OUTREACH_SENDGRID__INBOUND_SECRET: "in-secret" });
  await grantPremium(stack, MEMBER);
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
  const api = apiOf(app, page);
  const firstId = await campaignMailedToOneCafe(app, page, sink, {
    product: "Rye", cafe: "Cafe Koivu", address: "owner@koivu.example", campaign: "Rye mornings",
    education: "We bake rye every night. Deliveries arrive before the cafe opens.",
  });

  await page.goto(`${app.base}/dashboard?tab=inbox`);
  await page.waitForFunction(() => document.title === "Inbox · AI Outreach Agent");
  await page.getByText("No conversations here.", { exact: false }).waitFor();

  // The prospect answers by mail: the conversation shows within the list's next refresh, unread, with its reading.
  const parsed = await replyByMail(app, { from: "owner@koivu.example", subject: "Re: Rye for Cafe Koivu", messageId: "reply-1@koivu.example", inReplyTo: firstId, body: "Sounds good! Do your deliveries arrive before seven?" });
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

  // The keys work with the focus on a list item or on a tab too (issue 83.9): u on the item marks it unread; from the
  // Inbox tab, j selects it and r goes to its reply box.
  await item.click();
  await page.keyboard.press("u");
  await page.getByTestId("toast").getByText("Marked unread").waitFor();
  await item.getByText("Unread:", { exact: false }).waitFor();
  await page.getByRole("tab", { name: "Inbox" }).focus();
  await page.keyboard.press("j");
  await page.keyboard.press("r");
  await waitFor(async () => box.evaluate((element) => element === document.activeElement), "the reply box focused from the tab");
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
