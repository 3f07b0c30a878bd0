// Business discovery in the browser on the offline directory (the shipped Helsinki extract, © OpenStreetMap
// contributors, ODbL): search with progress, results, CSV export, and proceeding to step 3.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { OSM_EXTRACT } from "./server.mjs";
import { ADMIN, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;
let site;
let siteHost;
let slowOsm;

before(async () => {
  // A business website for enrichment, on loopback and allowed through the crawler's one explicit setting.
  site = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(request.url === "/contact"
      ? "<p>Orders: orders [at] harbour-deli.fi</p>"
      : '<a href="/contact">Contact</a> <a href="https://www.instagram.com/harbourdeli/">Instagram</a>');
  });
  await new Promise((done) => site.listen(0, "127.0.0.1", done));
  siteHost = `127.0.0.1:${site.address().port}`;
  // OpenStreetMap online, faked and slow: Nominatim knows only "Slowtown", Overpass takes a second per answer, so a
  // search there is still running when the user cancels it. Other areas fall through to the offline directory.
  slowOsm = createServer((request, response) => {
    const url = new URL(request.url, "http://fake");
    response.writeHead(200, { "content-type": "application/json" });
    if (url.pathname === "/search") {
      const known = url.searchParams.get("q") === "Slowtown";
      response.end(JSON.stringify(known ? [{ lat: "60.17", lon: "24.94", display_name: "Slowtown" }] : []));
      return;
    }
    const elements = Array.from({ length: 100 }, (_, index) => ({
      type: "node", id: index + 1, lat: 60.17 + index / 100000, lon: 24.94, tags: { amenity: "cafe", name: `Slow Café ${index + 1}` },
    }));
    setTimeout(() => response.end(JSON.stringify({ elements })), 1000);
  });
  await new Promise((done) => slowOsm.listen(0, "127.0.0.1", done));
  const osmUrl = `http://127.0.0.1:${slowOsm.address().port}`;
  stack = await startStack({
    OUTREACH_CRAWLER__ALLOW_HOSTS: siteHost,
    OUTREACH_SEARCH__PROVIDERS: "osm,directory",
    OUTREACH_SEARCH__NOMINATIM_URL: osmUrl,
    OUTREACH_SEARCH__OVERPASS_URL: osmUrl,
  }, { osmExtract: OSM_EXTRACT });
  ({ app, browser } = stack);
});

after(async () => {
  await stack?.stop();
  site?.close();
  slowOsm?.close();
});

test("a local search on the offline directory lists businesses, exports them and proceeds to step 3", async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await signIn(app, page, ADMIN);
  await page.getByRole("button", { name: "Create New Campaign" }).click();
  await page.getByLabel("Campaign name").fill("Helsinki cafés");
  await page.getByRole("button", { name: "Save Campaign Name" }).click();
  await page.getByRole("button", { name: "Next Step: Find Businesses" }).click();

  const form = page.getByRole("form", { name: "Business search" });
  await form.getByRole("button", { name: "Search" }).click();
  await form.getByText("Business type is required").waitFor();
  await form.getByLabel("Business type").fill("cafe");
  await form.getByLabel("Geographic area").fill("Nowhere-upon-Nothing");
  await form.getByLabel("Search radius").selectOption("5");
  await form.getByRole("button", { name: "Search" }).click();
  await page.getByText("Nowhere-upon-Nothing was not found in the offline directory", { exact: false }).waitFor();
  // The gazetteer places Austin, but the Helsinki extract has nothing there: the message says what to import.
  await form.getByLabel("Geographic area").fill("Austin, TX");
  await form.getByRole("button", { name: "Search" }).click();
  await page.getByText("No businesses near Austin, TX are in the offline directory", { exact: false }).waitFor();

  await form.getByLabel("Geographic area").fill("Helsinki");
  await form.getByLabel("Max results").fill("30");
  await form.getByRole("button", { name: "Search" }).click();
  await page.getByTestId("search-progress").getByText("Search complete: 30 businesses found").waitFor();
  await page.getByTestId("search-progress").getByText("2 of 2 chunks").waitFor();
  const results = page.getByRole("list", { name: "Businesses" });
  assert.equal(await results.getByRole("listitem").count(), 30);
  await page.getByText("© OpenStreetMap contributors (ODbL)").waitFor();

  // A lead file adds to the list; a bad row and a duplicate are reported with their lines.
  const leads = `name,email,website\nNordic Bakery,hello@bakery.example,bakery.example\n,missing@name.example,\nHarbour Deli,,http://${siteHost}/\nNordic Bakery Oy,,www.bakery.example\n`;
  await page.getByLabel("Import CSV").setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) });
  await page.getByText("Imported 2 businesses").waitFor();
  await page.getByText("2 skipped (line 3: name is required; line 5: already in your businesses as Nordic Bakery)").waitFor();
  assert.equal(await results.getByRole("listitem").count(), 32);
  await results.getByText("hello@bakery.example").waitFor();
  // The deli's address comes from its website: Email Pending, then the address.
  const deli = results.getByRole("listitem").filter({ hasText: "Harbour Deli" });
  await deli.getByText("orders@harbour-deli.fi").waitFor();
  await deli.getByRole("button").click();
  await page.getByRole("button", { name: "Look up social media" }).click();
  await page.getByRole("list", { name: "Social media" }).getByText("harbourdeli").waitFor();
  // The lookup says what it found.
  await page.getByTestId("toast").getByText("Found 1 social profile").waitFor();
  await page.keyboard.press("Escape");

  // Categories read as words (never `amenity=cafe`), and the list filters and sorts.
  assert.equal(await results.getByText("amenity=cafe").count(), 0);
  await results.getByText("Cafe", { exact: true }).first().waitFor();
  const narrowing = page.getByRole("group", { name: "Filter and sort" });
  await narrowing.getByLabel("Has email").check();
  const withEmail = await results.getByRole("listitem").count();
  assert.ok(withEmail >= 2 && withEmail < 32, `${withEmail} with an address`);
  await page.getByTestId("shown").getByText(`Showing ${withEmail} of 32 businesses, ${withEmail} with an email address`).waitFor();
  assert.equal(await results.getByRole("listitem").filter({ hasText: "No email" }).count(), 0);
  await narrowing.getByLabel("Has email").uncheck();
  await narrowing.getByLabel("Category").selectOption("Cafe");
  const cafes = await results.getByRole("listitem").count();
  assert.ok(cafes > 0 && cafes < 32, `${cafes} cafes`);
  await narrowing.getByLabel("Category").selectOption("");
  await narrowing.getByLabel("Sort").selectOption("email");
  assert.match(await results.getByRole("listitem").first().innerText(), /@/);
  await narrowing.getByLabel("Sort").selectOption("found");

  // Details of one business, with its provenance.
  await results.getByRole("listitem").first().getByRole("button").click();
  await page.getByRole("dialog").getByText("directory").waitFor();
  await page.keyboard.press("Escape");

  // Export the three selected businesses.
  for (const index of [0, 1, 2]) await results.getByRole("listitem").nth(index).getByRole("checkbox").check();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const csv = (await readFile(await download.path(), "utf8")).split("\n");
  assert.equal(csv[0], "name,email,email_source,email_check,phone,website,address,category,rating,provider,query,source_url,found_at");
  assert.equal(csv.length, 4, "the three selected");
  assert.ok(csv[1].includes("directory") && csv[1].includes("cafe in Helsinki") && csv[1].includes("openstreetmap.org"), csv[1]);

  // Issue 33.5: the ticks survive a reload before the user proceeds.
  await page.reload();
  await page.getByRole("button", { name: "Proceed To Step 3" }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[aria-label="Businesses"] input[type=checkbox]:checked').length === 3);
  await page.getByRole("button", { name: "Proceed To Step 3" }).click();
  await page.getByRole("heading", { name: "STEP 3 OUT OF 6: Educate the AI" }).waitFor();
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("selectedBusinesses") ?? "{}").ids?.length === 3);
  const [campaign] = await (await page.request.get(`${app.base}/api/campaigns`)).json();
  await assert.doesNotReject(async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const [fresh] = await (await page.request.get(`${app.base}/api/campaigns`)).json();
      if (fresh.status === "businesses_selected" && fresh.businessIds.length === 3) return;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`campaign not updated: ${JSON.stringify(campaign)}`);
  });
  const logs = await (await page.request.get(`${app.base}/api/search-logs`)).json();
  assert.deepEqual(logs.filter((log) => log.searchTerm === "cafe in Helsinki").map((log) => log.chunkNumber).sort(), [1, 2]);

  // The search log shows this search's two chunks.
  await page.goto(`${app.base}/search-log`);
  assert.equal(await page.getByTestId("current-search").textContent(), "cafe in Helsinki");
  assert.equal(await page.getByTestId("total-chunks").textContent(), "2");
  assert.equal(await page.getByTestId("businesses-found").textContent(), "30");
  const second = page.getByRole("listitem", { name: "Chunk 2" });
  await second.getByText("Requested 5, found 5").waitFor();
  assert.match(await second.getByText("Excluded from previous chunks:").textContent(), /, …$/);
  await second.getByText("Technical details").click();
  await second.getByText("amenity=cafe", { exact: false }).first().waitFor();
  await context.close();
});

test("a running search can be cancelled and finds nothing more", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(app, page, ADMIN);
  await page.getByRole("button", { name: "Create New Campaign" }).click();
  await page.getByLabel("Campaign name").fill("Slowtown cafés");
  await page.getByRole("button", { name: "Save Campaign Name" }).click();
  await page.getByRole("button", { name: "Next Step: Find Businesses" }).click();

  const form = page.getByRole("form", { name: "Business search" });
  await form.getByLabel("Business type").fill("cafe");
  await form.getByLabel("Geographic area").fill("Slowtown");
  await form.getByLabel("Search radius").selectOption("5");
  await form.getByLabel("Max results").fill("100");
  await form.getByRole("button", { name: "Search" }).click();
  const progress = page.getByTestId("search-progress");
  await progress.getByText("Searching: 25 businesses found").waitFor({ timeout: 20_000 });
  await progress.getByRole("button", { name: "Cancel search" }).click();
  await progress.getByText(/Search cancelled: \d+ businesses found/).waitFor();
  const stopped = Number((await progress.getByText(/Search cancelled/).textContent()).match(/(\d+) businesses/)[1]);
  assert.ok(stopped < 100, `cancelled before the end: ${stopped}`);

  // Chunks already queued stop at the cancellation: a few seconds later the search has not grown.
  await new Promise((done) => setTimeout(done, 3000));
  const searches = await (await page.request.get(`${app.base}/api/search-logs`)).json();
  const slowChunks = searches.filter((log) => log.searchTerm === "cafe in Slowtown");
  const found = slowChunks.reduce((sum, log) => sum + log.businessesFound, 0);
  assert.ok(found <= stopped + 25, `at most the chunk in flight finished: ${found} vs ${stopped}`);
  const businesses = await (await page.request.get(`${app.base}/api/businesses`)).json();
  assert.equal(businesses.filter((business) => business.name.startsWith("Slow Café")).length, found);
  await context.close();
});
