// Icebreakers in the composer (issue 82): a business imported with its address and its website (a saved site of the
// labelled set, served on loopback) gets its site read on its own; the composer's preview for it shows the first
// line with each source a link to its page and the exact sentence; the user edits the line, then drops it, and the
// preview follows (the template's fallback once dropped).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { after, before, test } from "node:test";
import { ADMIN, signIn, startStack } from "./support.mjs";

const SITE = resolve(import.meta.dirname, "../../core/data/icebreakers/dev/bluebird-coffee");
let stack;
let site;
let siteHost;

before(async () => {
  const pages = { "/": "index.html", "/news": "news.html" };
  site = createServer(async (request, response) => {
    const file = pages[request.url];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(await readFile(`${SITE}/${file}`));
  });
  await new Promise((done) => site.listen(0, "127.0.0.1", done));
  siteHost = `127.0.0.1:${site.address().port}`;
  stack = await startStack({ OUTREACH_CRAWLER__ALLOW_HOSTS: siteHost });
});

after(async () => {
  await stack?.stop();
  site?.close();
});

test("the composer shows a prospect's first line with its sources, and the user edits and drops it", async () => {
  const { app, browser } = stack;
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.getByRole("button", { name: "Create New Campaign" }).click();
  await page.getByLabel("Campaign name").fill("Coffee shops");
  await page.getByRole("button", { name: "Save Campaign Name" }).click();
  await page.getByRole("button", { name: "Next Step: Find Businesses" }).click();
  const leads = `name,email,website\nBluebird Coffee,hello@bluebird.example,http://${siteHost}/\n`;
  await page.getByLabel("Import CSV").setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) });
  await page.getByText("Imported 1 businesses").waitFor();
  // Imported with its address, the business's site is still read for its facts, without the user asking.
  const [business] = await (await page.request.get(`${app.base}/api/businesses`)).json();
  let line = null;
  for (let attempt = 0; attempt < 200 && !line; attempt++) {
    const answer = await page.request.get(`${app.base}/api/businesses/${business.id}/icebreaker`);
    if (answer.status() === 200) line = await answer.json();
    else await new Promise((done) => setTimeout(done, 100));
  }
  assert.ok(line, "the site was read");
  assert.equal(line.text, "Congratulations on Helsinki Barista Cup 2026 – well deserved.");

  await page.getByLabel("Select Bluebird Coffee").check();
  await page.getByRole("button", { name: "Proceed To Step 3" }).click();
  await page.getByRole("button", { name: "Proceed to Step 4" }).click();
  await page.getByRole("button", { name: "Create a new template" }).click();
  const brief = page.getByRole("form", { name: "Email brief" });
  await brief.getByLabel("Template name").fill("Coffee intro");
  await brief.getByLabel("Service description").fill("fresh pastries delivered every morning");
  await brief.getByLabel("Value proposition").fill("your counter never runs out");
  await brief.getByLabel("Your ask").fill("Can I bring a sample on Tuesday");
  await brief.getByLabel("Email signature").fill("Ada Baker");
  await page.getByRole("button", { name: "Generate Email" }).click();
  const generated = page.getByRole("region", { name: "Generated email" });
  const draftBody = generated.getByRole("textbox", { name: "Email body" });
  await draftBody.getByText("Ada Baker", { exact: false }).first().click();
  await page.keyboard.press("End");
  await generated.getByLabel("Insert a variable into Email body").selectOption({ label: "Icebreaker (first line from their website)" });
  await draftBody.getByText("{{icebreaker | Hope the week is going well.}}", { exact: false }).waitFor();

  // The preview for the business: its line in the email, and the line's sources, each its page and its sentence.
  const preview = generated.getByTestId("business-preview");
  await preview.getByRole("button", { name: "Show Preview" }).click();
  const frame = preview.frameLocator("iframe[title='Template body']");
  await frame.getByText("Congratulations on Helsinki Barista Cup 2026 – well deserved.", { exact: false }).waitFor();
  const panel = preview.getByRole("region", { name: "Icebreaker" });
  await panel.getByTestId("icebreaker-text").getByText("Congratulations on Helsinki Barista Cup 2026 – well deserved.").waitFor();
  const sources = panel.getByTestId("icebreaker-sources").getByRole("listitem");
  assert.ok((await sources.count()) >= 1);
  for (const fact of line.facts) {
    const source = sources.filter({ hasText: fact.quote });
    assert.equal(await source.getByRole("link").getAttribute("href"), fact.url);
    assert.ok(fact.url.startsWith(`http://${siteHost}/`), fact.url);
  }

  // Edited: the preview sends the user's line.
  await panel.getByRole("button", { name: "Edit Line" }).click();
  await panel.getByLabel("Your first line (at most 300 characters)").fill("Your cardamom buns are the talk of Kallio.");
  await panel.getByRole("button", { name: "Save Line" }).click();
  await page.getByText("Icebreaker saved").first().waitFor();
  await frame.getByText("Your cardamom buns are the talk of Kallio.", { exact: false }).waitFor();

  // Dropped: the template's fallback goes instead.
  await panel.getByRole("button", { name: "Drop Line" }).click();
  await page.getByText("Icebreaker dropped").first().waitFor();
  await panel.getByText("Dropped: the template's fallback is sent.").waitFor();
  await frame.getByText("Hope the week is going well.", { exact: false }).waitFor();
  const stored = await (await page.request.get(`${app.base}/api/businesses/${business.id}/icebreaker`)).json();
  assert.equal(stored.origin, "dropped");
  await page.close();
});
