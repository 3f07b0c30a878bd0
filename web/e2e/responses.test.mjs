// Browser test of the Responses tab (issue 20): a campaign sent through an SMTP sender to Postfix's smtp-sink; the
// prospect's reply arrives through SendGrid's Inbound Parse; the AI (the offline reader) reads it and drafts an
// answer that waits for approval (the reader is not sure enough to answer alone); the user edits and approves it in the tab, and it
// arrives at the SMTP server in the thread. The test dialog reads a typed reply and sends nothing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MEMBER, apiOf, campaignMailedToOneCafe, grantPremium, replyByMail, signIn, startSmtpSink, startStack, waitFor } from "./support.mjs";

let stack;
let sink;

const sinkMessages = () => sink.messages();

before(async () => {
  sink = await startSmtpSink();
  stack = await startStack({ OUTREACH_SENDGRID__INBOUND_SECRET: "in-secret" });
  await grantPremium(stack, MEMBER);
});

after(async () => {
  await stack?.stop();
  sink?.stop();
});

test("a reply is read, its drafted answer edited and approved in the Responses tab, and it arrives in the thread", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  const api = apiOf(app, page);
  const firstId = await campaignMailedToOneCafe(app, page, sink, {
    product: "Bread", cafe: "Cafe Aalto", address: "owner@aalto.example", campaign: "Mornings",
    education: "We bake sourdough every night. Deliveries arrive before the cafe opens.",
  });

  // The prospect answers by mail.
  const parsed = await replyByMail(app, { from: "owner@aalto.example", subject: "Re: Bread for Cafe Aalto", messageId: "reply-1@aalto.example", inReplyTo: firstId, body: "Sounds interesting! Do your deliveries arrive early?" });
  assert.deepEqual(parsed, { matched: true, kind: "reply" });

  const read = await waitFor(async () => (await api("GET", "/api/email-responses/analytics")).recentResponses.find((item) => item.answer), "the reply read and answered");
  assert.equal(read.classifier, "offline");
  await page.goto(`${app.base}/dashboard?tab=responses`);
  await page.waitForFunction(() => document.title === "Responses · AI Outreach Agent");
  const draft = page.getByTestId("draft-answer");
  await draft.waitFor({ timeout: 15_000 });
  await page.getByTestId("tile-Total Responses").getByText("1").waitFor();
  await page.getByTestId("tile-Pending Approvals").getByText("1").waitFor();
  // The reading is the offline reader's (its model's figures are measured by `outreach eval replies`); the page shows it.
  const feeling = read.sentiment[0].toUpperCase() + read.sentiment.slice(1);
  await page.getByTestId(`sentiment-${feeling}`).getByText("1 (100%)").waitFor();
  assert.ok(read.confidence < 0.9, `a reading below the campaign's 90% waits: ${read.confidence}`);
  await draft.getByText(`Waiting because: The AI is ${Math.round(read.confidence * 100)}% sure; this campaign answers by itself from 90%`).waitFor();
  const answer = draft.getByLabel("Answer");
  assert.match(await answer.inputValue(), /Deliveries arrive before the cafe opens\./);
  await answer.fill("Hello,\n\nYes: our deliveries arrive before you open, every morning.\n\nBest regards,\nAda");
  await draft.getByRole("button", { name: "Approve and Send" }).click();
  await page.getByTestId("toast").getByText("Answer approved").waitFor();
  await page.getByText("No answers waiting for your approval.").waitFor();

  const sent = await waitFor(async () => (await sinkMessages()).find((message) => message.includes("In-Reply-To: <reply-1@aalto.example>")), "the answer at the SMTP server");
  assert.match(sent, /Subject: Re: Bread for Cafe Aalto/);
  assert.match(sent, new RegExp(`References: <${firstId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}> <reply-1@aalto\\.example>`));
  assert.match(sent, /arrive before you open, every morning/);
  const response = page.getByTestId("email-response").filter({ hasText: "owner@aalto.example" });
  await page.reload();
  await response.getByText("Answered (approved by you)", { exact: false }).waitFor();
  await page.close();
});

test("the test dialog reads a typed reply in the spec's words and sends nothing", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, MEMBER);
  await page.goto(`${app.base}/dashboard?tab=responses`);
  await page.getByRole("button", { name: "Test a Response" }).click();
  const dialog = page.getByRole("dialog", { name: "Test a response" });
  await dialog.getByRole("button", { name: "Process Response" }).click();
  await dialog.getByRole("alert").getByText("Please enter a valid email address").waitFor();
  await dialog.getByLabel("From").fill("owner@cafe.example");
  await dialog.getByRole("button", { name: "Process Response" }).click();
  await dialog.getByRole("alert").getByText("Subject is required").waitFor();
  await dialog.getByLabel("Subject").fill("Re: Bread");
  await dialog.getByLabel("Response body").fill("Too short");
  await dialog.getByRole("button", { name: "Process Response" }).click();
  await dialog.getByRole("alert").getByText("Response body must be at least 10 characters").waitFor();
  const before = (await sinkMessages()).length;
  await dialog.getByLabel("Response body").fill("Bitte entfernen Sie mich aus Ihrem Verteiler.");
  await dialog.getByRole("button", { name: "Process Response" }).click();
  await page.getByTestId("toast").getByText("Test response processed").waitFor();
  const result = dialog.getByTestId("test-result");
  await result.getByText("Asks to stop").waitFor();
  await result.getByText("German", { exact: false }).waitFor();
  await result.getByText("No answer: their follow-ups stop").waitFor();
  assert.equal((await sinkMessages()).length, before, "nothing sent");
  await page.close();
});
