// Sending in the browser: an SMTP sender pointed at Postfix's smtp-sink on loopback (a real SMTP server started
// here; Debian package postfix), a campaign of three businesses (one without an email) launched from step 6,
// progress to completed, the messages at the SMTP server, the usage meter, and one-click unsubscribe suppressing
// the next send; a Gmail sender connected through the fake Google consent page, sending through the Gmail API.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, test } from "node:test";
import { ADMIN, signIn, startSmtpSink, startStack } from "./support.mjs";

let stack;
let sink;

const sinkMessages = () => sink.messages();

before(async () => {
  sink = await startSmtpSink();
  stack = await startStack();
});

after(async () => {
  await stack?.stop();
  sink?.stop();
});

test("an SMTP sender, a launched campaign watched to completion, and one-click unsubscribe", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);

  // Email Settings: the outbox until a sender is saved; the SMTP form checks the server.
  await page.getByRole("tab", { name: "Email Settings" }).click();
  await page.getByTestId("sender-status").getByText("nothing leaves this machine", { exact: false }).waitFor();
  await page.getByRole("tab", { name: "SMTP Server" }).click();
  const form = page.getByRole("form", { name: "SMTP sender" });
  await form.getByLabel("Sender name").fill("Grace Hopper");
  await form.getByLabel("Sender email").fill("grace@bakery.example");
  await form.getByLabel("SMTP host").fill("127.0.0.1");
  await form.getByLabel("SMTP port").fill(String(sink.port));
  await form.getByLabel("Security", { exact: true }).selectOption("none");
  // An IMAP mailbox for replies is checked too: one that does not answer is refused with the reason.
  await form.getByLabel("IMAP host").fill("127.0.0.1");
  await form.getByLabel("IMAP port").fill("9");
  await form.getByLabel("IMAP security").selectOption("none");
  await form.getByRole("button", { name: "Save SMTP Sender" }).click();
  await form.getByRole("alert").getByText("IMAP password is required").waitFor();
  assert.equal(await form.getByLabel("IMAP password").getAttribute("aria-invalid"), "true", "the error is the field's");
  await form.getByLabel("IMAP password").fill("secret");
  await form.getByRole("button", { name: "Save SMTP Sender" }).click();
  await form.getByRole("alert").getByText("The IMAP server check failed: the IMAP server could not be reached", { exact: false }).waitFor();
  await form.getByLabel("IMAP host").fill("");
  await form.getByRole("button", { name: "Save SMTP Sender" }).click();
  await page.getByTestId("sender-status").getByText("Sending as Grace Hopper", { exact: false }).waitFor();
  await page.getByRole("list", { name: "Email configurations" }).getByText("Default").waitFor();
  await page.getByRole("list", { name: "Email configurations" }).getByText("Replies to this sender are not detected: add its IMAP mailbox to read them.").waitFor();
  await page.getByLabel("Postal address").fill("Bakery Street 1, 00100 Helsinki");
  await page.getByRole("button", { name: "Save Postal Address" }).click();
  await page.getByText("Postal address saved").first().waitFor();
  // Issue 33.1: saving again without an edit, after a reload, keeps the address (it used to send an empty one).
  await page.reload();
  await page.getByRole("tab", { name: "Email Settings" }).click();
  const postalField = await page.getByLabel("Postal address").elementHandle();
  await page.waitForFunction((field) => field.value !== "", postalField);
  assert.equal(await page.getByLabel("Postal address").inputValue(), "Bakery Street 1, 00100 Helsinki");
  await page.getByRole("button", { name: "Save Postal Address" }).click();
  await page.getByText("Postal address saved").first().waitFor();
  const profile = await (await page.request.get(`${app.base}/api/user/profile`)).json();
  assert.equal(profile.postalAddress, "Bakery Street 1, 00100 Helsinki", "the saved address is kept");

  // A template and three leads, one without an email.
  const created = await page.request.post(`${app.base}/api/email-templates`, { data: {
    name: "Launch intro", subject: "Bread for {{businessName}}", objective: "Partnership Proposal", tone: "friendly", emailSignature: "Grace",
    body: "<p>Hello [business name], see <a href=\"https://bakery.example/menu\">our menu</a>.</p>",
  } });
  assert.equal(created.status(), 201);

  await page.getByRole("tab", { name: "Build Campaign" }).click();
  await page.getByRole("button", { name: "Create New Campaign" }).click();
  await page.getByLabel("Campaign name").fill("Launch day");
  await page.getByRole("button", { name: "Save Campaign Name" }).click();
  await page.getByRole("button", { name: "Next Step: Find Businesses" }).click();
  const leads = "name,email\nCafé Aalto,owner@aalto.example\nNo Mail Deli,\nKahvila Kuu,kuu@kuu.example\n";
  await page.getByLabel("Import CSV").setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) });
  await page.getByText("Imported 3 businesses").waitFor();
  await page.getByText("Select all").click();
  await page.getByRole("button", { name: "Proceed To Step 3" }).click();
  await page.getByRole("button", { name: "Proceed to Step 4" }).click();
  await page.getByRole("button", { name: "Use This Template" }).first().click();
  await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();
  await page.getByLabel("Send from").selectOption({ label: "Grace Hopper <grace@bakery.example> (smtp)" });
  await page.getByRole("button", { name: "Go To Step 6" }).click();

  // A test first: the template as each chosen business would get it, to the test address.
  await page.getByRole("button", { name: "Test Campaign" }).click();
  const testDialog = page.getByRole("dialog", { name: "Test Campaign" });
  await testDialog.getByLabel("Test email address").fill("me@test.example");
  for (const name of ["Café Aalto", "No Mail Deli", "Kahvila Kuu"]) await testDialog.getByRole("checkbox", { name: new RegExp(name) }).check();
  await testDialog.getByRole("button", { name: "Send Test Emails" }).click();
  await testDialog.getByText("test emails sent to me@test.example", { exact: false }).waitFor();
  await testDialog.getByRole("button", { name: "Close" }).first().click();
  const tests = (await sinkMessages()).filter((message) => message.includes("X-Rcpt-Args: <me@test.example>"));
  assert.equal(tests.length, 3, "one per chosen business, each personalised, all to the test address");

  const usageBefore = await (await page.request.get(`${app.base}/api/email-usage`)).json();
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  await page.getByRole("dialog", { name: "Launch campaign" }).getByTestId("launch-counts").getByText("Send \"Launch intro\" to 3 businesses? 2 emails will be sent; 1 business without an email address will be skipped.").waitFor();
  await page.getByRole("button", { name: "Send Now" }).click();
  await page.getByText("You can launch another campaign anytime.", { exact: false }).first().waitFor();
  await page.getByTestId("send-progress").getByText("Completed: 2 sent, 0 failed, 1 skipped, 0 queued").waitFor({ timeout: 20_000 });
  assert.match(await page.getByRole("link", { name: "View Campaign Analytics" }).getAttribute("href"), /^\/campaign-analytics\/\d+$/);

  const messages = (await sinkMessages()).filter((message) => !message.includes("X-Rcpt-Args: <me@test.example>"));
  assert.equal(messages.length, 2);
  const aalto = messages.find((message) => message.includes("X-Rcpt-Args: <owner@aalto.example>"));
  assert.ok(aalto.includes("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), aalto);
  assert.ok(aalto.replace(/=\r?\n/g, "").includes("Bakery Street 1, 00100 Helsinki"), "the postal address in the footer");
  const usageAfter = await (await page.request.get(`${app.base}/api/email-usage`)).json();
  assert.equal(usageAfter.count, usageBefore.count + 2);

  // Issue 83.16: the unsubscribe page opened from the email's footer names the sender the email came from.
  const footerLink = aalto.replace(/=\r?\n/g, "").replace(/=3D/g, "=").match(/(\/unsubscribe\?t=[A-Za-z0-9_-]+)/)[1];
  const unsubscribePage = await browser.newPage();
  await unsubscribePage.goto(`${app.base}${footerLink}`);
  await unsubscribePage.getByTestId("unsubscribe-sender").getByText("Grace Hopper").waitFor();
  await unsubscribePage.waitForFunction(() => document.querySelector("#unsubscribe-email")?.value === "owner@aalto.example");
  await unsubscribePage.close();

  // One-click unsubscribe from the message's header, as a mail provider would post it.
  const header = aalto.replace(/\r?\n\s+/g, " ").match(/List-Unsubscribe: <([^>]+)>/)[1];
  const oneClick = await fetch(header, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
  assert.equal(oneClick.status, 200);

  // The next launch to the same businesses skips the unsubscribed address.
  const [campaign] = await (await page.request.get(`${app.base}/api/campaigns`)).json();
  const [template] = await (await page.request.get(`${app.base}/api/email-templates`)).json();
  const fresh = await (await page.request.post(`${app.base}/api/campaigns`, { data: { name: "Second wave" } })).json();
  const again = await (await page.request.post(`${app.base}/api/campaigns/send`, { data: { campaignId: fresh.id, templateId: template.id, businessIds: campaign.businessIds } })).json();
  assert.equal(again.emailsSent, 2, JSON.stringify(again));
  for (let attempt = 0; attempt < 100; attempt++) {
    const progress = await (await page.request.get(`${app.base}/api/campaigns/${fresh.id}/progress`)).json();
    if (progress.status === "completed") break;
    await new Promise((done) => setTimeout(done, 100));
  }
  const after = (await sinkMessages()).filter((message) => !message.includes("X-Rcpt-Args: <me@test.example>"));
  assert.equal(after.length, 3, "only Kahvila Kuu again");
  assert.equal(after.filter((message) => message.includes("X-Rcpt-Args: <owner@aalto.example>")).length, 1);

  // Issue 83.2: a template created on the Email Templates tab belongs to no campaign; the launched campaign still
  // names the template its mail went out with.
  const launchDay = (await (await page.request.get(`${app.base}/api/campaigns`)).json()).find((item) => item.name === "Launch day");
  const launchIntro = await created.json();
  assert.equal(launchDay.templateId, launchIntro.id);
  await page.getByRole("tab", { name: "Email Templates" }).click();
  await page.getByRole("button", { name: "Create New Template" }).click();
  const brief = page.getByRole("region", { name: "Create New Template" }).getByRole("form", { name: "Email brief" });
  await brief.getByLabel("Template name").fill("Winter rye");
  await brief.getByLabel("Service description").fill("rye bread for the winter menu");
  await brief.getByLabel("Value proposition").fill("a loaf that keeps a week");
  await brief.getByLabel("Your ask").fill("Can I bring a sample on Friday");
  await brief.getByLabel("Email signature").fill("Grace");
  await brief.getByRole("button", { name: "Generate Email" }).click();
  await page.getByRole("button", { name: "Save as Template" }).click();
  await page.getByRole("dialog", { name: "Save template" }).getByRole("button", { name: "Save" }).click();
  await page.getByRole("region", { name: "Email Templates" }).getByRole("article", { name: "Winter rye" }).waitFor();
  const unchanged = await (await page.request.get(`${app.base}/api/campaigns/${launchDay.id}`)).json();
  assert.equal(unchanged.templateId, launchIntro.id, "the launched campaign keeps its template");

  // Issue 80: an email left in doubt by a worker that stopped mid-send (as the recovery leaves it) is sent again from
  // the campaign details, after a warning that it may have arrived.
  execFileSync("sqlite3", ["-cmd", ".timeout 10000", app.database, `update sent_emails set status = 'failed', uncertain = 1, error = 'may have arrived', sent_at = null where campaign_id = ${fresh.id} and to_email = 'kuu@kuu.example'`]);
  await page.goto(`${app.base}/campaign-details/${fresh.id}`);
  const inDoubt = page.locator("section").filter({ has: page.getByRole("heading", { name: "In doubt" }) });
  await inDoubt.getByText("1 email may have arrived", { exact: false }).waitFor();
  await inDoubt.getByRole("button", { name: "Send Again" }).click();
  const warning = page.getByRole("dialog", { name: "Send the emails in doubt again" });
  await warning.getByText("their recipients would get a second copy", { exact: false }).waitFor();
  await warning.getByRole("button", { name: "Send Again" }).click();
  await page.getByText("1 email went back to the queue").first().waitFor();
  await inDoubt.waitFor({ state: "detached", timeout: 20_000 });
  const toKuu = async () => (await sinkMessages()).filter((message) => message.includes("X-Rcpt-Args: <kuu@kuu.example>")).length;
  for (let attempt = 0; attempt < 100 && (await toKuu()) < 3; attempt++) await new Promise((done) => setTimeout(done, 100));
  assert.equal(await toKuu(), 3, "the first wave's, the second wave's, and the one sent again");
  await page.close();
});

test("a Gmail sender connected through Google's consent sends through the Gmail API", async () => {
  const { app, browser, google } = stack;
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.getByRole("tab", { name: "Email Settings" }).click();

  // The different-Gmail form checks the address with the spec's texts before anything is asked of Google.
  await page.getByRole("button", { name: "Yes" }).click();
  const different = page.getByRole("form", { name: "Different Gmail address" });
  await different.getByLabel("A different Gmail address").fill("ada@bakery.example");
  await different.getByRole("button", { name: "Continue" }).click();
  await page.getByText("Please enter a valid Gmail address (ending with @gmail.com)").first().waitFor();

  // The login address: names, then the consent dialog, then Google's consent page and back.
  await page.getByRole("button", { name: `Use ${ADMIN.email}` }).click();
  const sender = page.getByRole("form", { name: "Gmail sender" });
  await sender.getByLabel("First name").fill("Grace");
  await sender.getByLabel("Last name").fill("Hopper");
  await sender.getByRole("button", { name: "Save and Connect Gmail" }).click();
  const consent = page.getByRole("dialog", { name: "Gmail Permission" });
  await consent.getByText("revoke this permission", { exact: false }).waitFor();
  await consent.getByRole("button", { name: "Continue to Google" }).click();
  await page.getByRole("heading", { name: `Outreach wants to send email as ${ADMIN.email}` }).waitFor();
  await page.getByRole("link", { name: "Allow" }).click();
  await page.getByRole("heading", { name: "Gmail Permission Granted Successfully!" }).waitFor();
  await page.getByRole("link", { name: "Continue to Dashboard" }).click();
  await page.getByText("Gmail Connection Successful").first().waitFor();
  const configs = page.getByRole("list", { name: "Email configurations" });
  const gmailRow = configs.getByRole("listitem").filter({ hasText: `Grace Hopper <${ADMIN.email}> · Gmail` });
  await gmailRow.waitFor();
  assert.ok(!page.url().includes("gmail=success"), "the return parameters are cleared");
  await gmailRow.getByRole("button", { name: "Set Default" }).click();
  await page.getByText("Default Email Updated").first().waitFor();
  await gmailRow.getByText("Default").waitFor();

  // A test email goes out through the Gmail API with the refreshed access token.
  const sent = await (await page.request.post(`${app.base}/api/campaigns/send-test-email`, { data: { to: "me@test.example", subject: "Gmail check", body: "<p>Hello</p>" } })).json();
  assert.equal(sent.success, true, JSON.stringify(sent));
  const raw = google.gmailMessages.at(-1);
  assert.match(raw, /^From: "?Grace Hopper"? <boss@example\.org>/m);
  assert.match(raw, /^To: me@test\.example/m);

  // Replies to it are read only after the optional second consent, explained first.
  await page.getByRole("tab", { name: "Email Settings" }).click();
  await gmailRow.getByText("Replies to this address are not detected", { exact: false }).waitFor();
  await gmailRow.getByRole("button", { name: "Allow Reading Replies" }).click();
  const readDialog = page.getByRole("dialog", { name: "Allow reading replies" });
  await readDialog.getByText("never marks anything as read", { exact: false }).waitFor();
  await readDialog.getByRole("button", { name: "Continue to Google" }).click();
  await page.getByRole("heading", { name: `Outreach wants to send and read email of ${ADMIN.email}` }).waitFor();
  await page.getByRole("link", { name: "Allow" }).click();
  await page.getByRole("heading", { name: "Gmail Permission Granted Successfully!" }).waitFor();
  await page.goto(`${app.base}/dashboard?tab=email-settings`);
  await gmailRow.getByText("Replies are read from this Gmail inbox every 5 minutes", { exact: false }).waitFor();
  assert.equal(await gmailRow.getByRole("button", { name: "Allow Reading Replies" }).count(), 0);
  await page.close();
});
