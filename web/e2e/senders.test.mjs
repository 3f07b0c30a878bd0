// The local outbox with a reply typed in the app, then the SendGrid levels in the browser: a basic address on the instance's sending domain (the username checked as it
// is typed, Create Address, Send Test through the operator's key) and a branded sender with the user's own key
// (refused, then accepted) whose domain records are checked, against a local fake of SendGrid's v3 API that checks
// every request's key.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { ADMIN, signIn, startStack } from "./support.mjs";

let stack;
let sendgrid;
const mails = [];

before(async () => {
  sendgrid = createServer((request, response) => {
    const key = request.headers.authorization ?? "";
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (request.method === "GET" && request.url === "/v3/scopes") {
        const ok = key === "Bearer SG.good";
        response.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
        return response.end(JSON.stringify(ok ? { scopes: ["mail.send"] } : { errors: [{ message: "authorization required" }] }));
      }
      if (request.method === "POST" && request.url === "/v3/mail/send" && ["Bearer SG.operator", "Bearer SG.good"].includes(key)) {
        mails.push({ key, ...JSON.parse(body) });
        response.writeHead(202, { "x-message-id": `sg-${mails.length}` });
        return response.end();
      }
      response.writeHead(404);
      response.end();
    });
  });
  await new Promise((done) => sendgrid.listen(0, "127.0.0.1", done));
  stack = await startStack({
    OUTREACH_SENDGRID__API_URL: `http://127.0.0.1:${sendgrid.address().port}`,
    OUTREACH_SENDGRID__API_KEY: "SG.operator",
  });
});

after(async () => {
  await stack?.stop();
  await new Promise((done) => sendgrid.close(done));
});

test("a basic address with Send Test, and a branded SendGrid sender with its domain checked", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.getByRole("tab", { name: "Email Settings" }).click();
  const domain = `hello.127.0.0.1`;

  // Without a sender the local outbox keeps the message; a reply typed as its recipient marks it replied.
  const kept = await (await page.request.post(`${app.base}/api/campaigns/send-test-email`, { data: { to: "owner@cafe.example", subject: "Outbox hello", body: "<p>Hello</p>" } })).json();
  assert.equal(kept.success, true, JSON.stringify(kept));
  await page.reload();
  const outboxList = page.getByRole("list", { name: "Outbox" });
  // A test send is labelled as one.
  await outboxList.getByRole("listitem").filter({ hasText: "Outbox hello" }).getByText("Test", { exact: true }).waitFor();
  await outboxList.getByRole("button", { name: "Outbox hello" }).click();
  const viewer = page.getByRole("dialog", { name: "Outbox hello" });
  await viewer.getByText("a test send, not campaign mail", { exact: false }).waitFor();
  await viewer.getByLabel("Reply as owner@cafe.example (for trying the product)").fill("Yes, tell me more");
  await viewer.getByRole("button", { name: "Record Reply" }).click();
  await page.getByText("Reply recorded").first().waitFor();
  await viewer.getByText("This recipient replied.").waitFor();
  await viewer.getByRole("button", { name: "Close" }).click();
  await page.getByRole("list", { name: "Outbox" }).getByText("Replied").waitFor();

  // Level 2: the username is checked as it is typed, the address created, then a test sent to the login address.
  await page.getByRole("tab", { name: "Level 2: Basic SendGrid" }).click();
  const basic = page.getByRole("form", { name: "Basic address" });
  await basic.getByLabel("First name").fill("Grace");
  await basic.getByLabel("Last name").fill("Hopper");
  const send = basic.getByRole("button", { name: "Send Test" });
  assert.equal(await send.isDisabled(), true, "no address yet");
  await basic.getByLabel(`Email username (@${domain})`).fill("grace_h");
  await page.getByTestId("username-availability").getByText(`grace_h@${domain} is available`).waitFor();
  await basic.getByRole("button", { name: "Create Address" }).click();
  await page.getByText("Address Created Successfully!").first().waitFor();
  await page.getByTestId("basic-address").getByText(`grace_h@${domain}`).waitFor();
  await basic.getByLabel(`Email username (@${domain})`).fill("grace_h");
  await page.getByTestId("username-availability").getByText("This username is already taken").waitFor();
  await send.click();
  await page.getByText("Test Email Sent Successfully!").first().waitFor();
  const test = mails.at(-1);
  assert.equal(test.key, "Bearer SG.operator");
  assert.deepEqual(test.from, { email: `grace_h@${domain}`, name: "Grace Hopper" });
  assert.equal(test.personalizations[0].to[0].email, ADMIN.email);

  // Level 3: the guide's four steps; a key without Mail Send is refused with SendGrid's reason, a good one saved.
  await page.getByRole("tab", { name: "Level 3: Branded SendGrid" }).click();
  assert.equal(await page.getByRole("list", { name: "SendGrid setup guide" }).getByRole("listitem").count(), 4);
  const branded = page.getByRole("form", { name: "Branded SendGrid sender" });
  await branded.getByLabel("Sender email").fill("hello@bakery.example");
  await branded.getByLabel("Sender name").fill("Nordic Bakery");
  await branded.getByLabel("SendGrid API key").fill("SG.bad");
  await branded.getByRole("button", { name: "Save Branded Sender" }).click();
  await branded.getByRole("alert").getByText("SendGrid refused the API key", { exact: false }).waitFor();
  await branded.getByLabel("SendGrid API key").fill("SG.good");
  await branded.getByRole("button", { name: "Save Branded Sender" }).click();
  await page.getByText("Email Configuration Saved").first().waitFor();
  const row = page.getByRole("list", { name: "Email configurations" }).getByRole("listitem").filter({ hasText: "Branded SendGrid" });
  await row.waitFor();

  // Its domain's records are read (no DNS answers here): each check is listed with what to do.
  await row.getByRole("button", { name: "Verify" }).click();
  await page.getByText("Verification Failed").first().waitFor();
  const checks = page.getByRole("list", { name: "Domain checks" });
  for (const name of ["SPF", "DKIM", "DMARC"]) await checks.getByText(name, { exact: true }).waitFor();

  await page.getByRole("button", { name: "Currently Available Features" }).click();
  await page.getByRole("dialog", { name: "Currently Available Features" }).getByText("✓ Basic SendGrid address (Level 2)").waitFor();
  await page.close();
});
