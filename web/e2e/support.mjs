// Shared setup of the browser tests: a fake Google provider, `outreach serve` configured to use it, Debian's
// Chromium, and signing in through the provider's account chooser.
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CLIENT_ID, CLIENT_SECRET, startFakeGoogle } from "./fake-google.mjs";
import { startOutreach } from "./server.mjs";

export const ADMIN = { key: "boss", email: "boss@example.org", given: "Grace", family: "Hopper" };
export const MEMBER = { key: "ada", email: "ada@example.org", given: "Ada", family: "Lovelace" };
/** Someone who signs in for the first time during a test and waits on the beta screen. */
export const NEWCOMER = { key: "alan", email: "alan@example.org", given: "Alan", family: "Turing" };

/** Starts everything; `env` adds OUTREACH_* settings. Call `stop()` when done. */
export async function startStack(env = {}, options = {}) {
  const google = await startFakeGoogle([ADMIN, MEMBER, NEWCOMER]);
  const app = await startOutreach({
    OUTREACH_AUTH__ADMIN_EMAILS: ADMIN.email,
    OUTREACH_GOOGLE__CLIENT_ID: CLIENT_ID,
    OUTREACH_GOOGLE__CLIENT_SECRET: CLIENT_SECRET,
    OUTREACH_GOOGLE__AUTH_URL: `${google.url}/authorize`,
    OUTREACH_GOOGLE__TOKEN_URL: `${google.url}/token`,
    OUTREACH_GOOGLE__USERINFO_URL: `${google.url}/userinfo`,
    OUTREACH_GOOGLE__GMAIL_API_URL: google.url,
    // Directory businesses have real websites: browser tests read only their own fixture sites.
    OUTREACH_CRAWLER__RESTRICT_TO_ALLOW_HOSTS: "true",
    // The senders of these tests are SMTP servers on loopback, which an operator has to allow.
    OUTREACH_SENDING__ALLOW_HOSTS: "127.0.0.1/32",
    // The pre-launch spam check with the built-in rules: SpamAssassin takes seconds a check on a busy machine, and its
    // real scores are the API and core tests' (issue 81).
    OUTREACH_DELIVERABILITY__SPAMASSASSIN: "off",
    ...env,
  }, options);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return {
    app,
    browser,
    google,
    async stop() {
      await browser.close();
      await app.stop();
      await google.close();
    },
  };
}

/** Signs `page` in by picking the person on the fake provider's account chooser. */
export async function signIn(app, page, person) {
  await page.goto(`${app.base}/login`);
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.getByRole("link", { name: `${person.given} ${person.family}` }).click();
  await page.waitForURL(`${app.base}/dashboard`);
}

/** The subject and body of a `mailto:` link. */
export function mailParts(href) {
  const url = new URL(href);
  return { to: url.pathname, subject: url.searchParams.get("subject"), body: url.searchParams.get("body") ?? "" };
}

/** A message with each folded header line (one going on over the next, which starts with a space or a tab: RFC 5322
 * §2.2.3) joined to the line before, so that a test can look for a whole header; the body is left as it is. */
export function unfoldHeaders(message) {
  const end = message.search(/\r?\n\r?\n/);
  const [headers, body] = end < 0 ? [message, ""] : [message.slice(0, end), message.slice(end)];
  return headers.replace(/\r?\n[ \t]+/g, " ") + body;
}

/** Postfix's smtp-sink on a free loopback port, keeping each message it takes as a file: `messages()` reads them in
 * order, headers unfolded; `stop()` ends it. */
export async function startSmtpSink() {
  const dir = await mkdtemp(join(tmpdir(), "smtp-sink-"));
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  const root = execFileSync("id", ["-u"]).toString().trim() === "0";
  const child = spawn("smtp-sink", [...(root ? ["-u", "root"] : []), "-d", `${dir}/%M.`, `127.0.0.1:${port}`, "100"], { stdio: "ignore" });
  return {
    port,
    async messages() {
      const files = (await readdir(dir)).sort();
      return Promise.all(files.map(async (file) => unfoldHeaders(await readFile(join(dir, file), "utf8"))));
    },
    stop() {
      child.kill();
    },
  };
}

/** What `find` finds, asked every 100 ms for up to 15 s. */
export async function waitFor(find, what) {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const found = await find();
    if (found) return found;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The member may send: an administrator grants premium with 100 emails a month. */
export async function grantPremium(stack, person) {
  const admin = await stack.browser.newPage();
  await signIn(stack.app, admin, ADMIN);
  const granted = await admin.request.post(`${stack.app.base}/api/admin/set-user-status`, { data: { email: person.email, status: "premium", emailLimit: 100 } });
  if (granted.status() !== 200) throw new Error(`premium not granted: ${granted.status()}`);
  await admin.close();
}

/** JSON calls as the page's signed-in user; a refusal fails the test with the server's answer. */
export function apiOf(app, page) {
  return async (method, path, data) => {
    const response = await page.request.fetch(`${app.base}${path}`, { method, data });
    if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
}

/** One café emailed by a campaign through an SMTP sender pointed at `sink`: the user's postal address and sender,
 * a template "<product> for {{businessName}}", the café imported, the campaign with its education, sent. Returns
 * the first email's Message-ID once the sink has it. */
export async function campaignMailedToOneCafe(app, page, sink, { product, cafe, address, campaign, education }) {
  const api = apiOf(app, page);
  await api("PUT", "/api/user/profile", { postalAddress: "Bakery Street 1, 00100 Helsinki" });
  await api("POST", "/api/user/email-config", {
    emailProvider: "smtp", emailSendFrom: "ada@bakery.example", emailSendFromName: "Ada Baker",
    smtpHost: "127.0.0.1", smtpPort: sink.port, smtpSecurity: "none",
  });
  const template = await api("POST", "/api/email-templates", { name: "Intro", subject: `${product} for {{businessName}}`, body: "<p>Hi [business name]</p>" });
  const leads = `name,email\n${cafe},${address}\n`;
  const imported = await (await page.request.post(`${app.base}/api/businesses/import`, { multipart: { file: { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) } } })).json();
  const created = await api("POST", "/api/campaigns", { name: campaign });
  await api("PUT", `/api/campaigns/${created.id}`, { aiEducationText: education });
  await api("POST", "/api/campaigns/send", { campaignId: created.id, templateId: template.id, businessIds: [imported.businesses[0].id] });
  const first = await waitFor(async () => (await sink.messages()).find((message) => message.includes(`Subject: ${product} for ${cafe}`)), "the first email");
  return first.match(/^Message-ID: <([^>]+)>/im)[1];
}

/** The prospect answers by mail, through SendGrid's Inbound Parse (the stack's inbound secret is `in-secret`). */
export async function replyByMail(app, { from, subject, messageId, inReplyTo, body }) {
  const raw = `From: ${from}\r\nTo: ada@bakery.example\r\nSubject: ${subject}\r\nMessage-ID: <${messageId}>\r\nIn-Reply-To: <${inReplyTo}>\r\n\r\n${body}\r\n`;
  const form = new FormData();
  form.set("to", "ada@bakery.example");
  form.set("email", raw);
  return (await fetch(`${app.base}/api/webhooks/sendgrid/inbound/in-secret`, { method: "POST", body: form })).json();
}
