// The whole builder at a phone's width and at a desktop's: every dashboard section within reach, every step reached
// through the stepper's flow, nothing wider than the screen, and one step in view, so no page grows past a bound (the
// stacked builder reached about 4,000 px on a phone at step 4); on a phone, an opened inbox conversation in view.
// Prints each step's page height for the report.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
  const admin = await browser.newPage();
  await signIn(app, admin, ADMIN);
  const granted = await admin.request.post(`${app.base}/api/admin/set-user-status`, { data: { email: MEMBER.email, status: "premium", emailLimit: 100 } });
  assert.equal(granted.status(), 200);
  await admin.close();
});

after(async () => stack?.stop());

/** The dashboard's sections, in order. */
const SECTIONS = ["STEP 1: Email Settings", "STEP 2: Build Campaign", "Campaign Analytics", "Email Templates", "Contacts", "Responses", "Inbox", "Automation", "Test Automation"];

/** The page's height and whether anything makes it scroll sideways. */
async function measure(page) {
  return page.evaluate(() => {
    const wide = document.documentElement.scrollWidth > window.innerWidth;
    // What sticks out, to say in the failure.
    const culprits = wide
      ? [...document.querySelectorAll("body *")]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(-3)
          .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`)
      : [];
    return { height: document.documentElement.scrollHeight, wide, culprits };
  });
}

for (const [name, viewport, bound] of [
  ["phone", { width: 390, height: 844 }, 3000],
  ["desktop", { width: 1280, height: 900 }, 1800],
]) {
  test(`the builder from name to launch on a ${name} (${viewport.width} px)`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(app, page, MEMBER);
    await page.request.post(`${app.base}/api/email-templates`, { data: { name: `Intro ${name}`, subject: "Hello {{businessName}}", body: "<p>Hi [business name]</p>" } });
    const heights = {};
    const step = async (label) => {
      const { height, wide, culprits } = await measure(page);
      heights[label] = height;
      assert.equal(wide, false, `${label}: nothing scrolls sideways (${culprits.join(", ")})`);
      assert.ok(height <= bound, `${label}: ${height} px is over ${bound} px`);
    };

    // Issue 33.5: on a phone the header and the tabs leave the screen to the content (they took 730 px of 844).
    await page.locator("#dashboard-panel").waitFor();
    const contentTop = await page.evaluate(() => document.getElementById("dashboard-panel").getBoundingClientRect().top);
    console.log(`${name}: the dashboard's content starts ${Math.round(contentTop)} px down`);
    if (name === "phone") assert.ok(contentTop <= 420, `the content starts ${contentTop} px down`);
    // Issue 83.15: every section is within reach. On a phone a labelled select lists all nine (a row of tabs left
    // seven off screen with no cue); wider, every tab is on screen.
    if (name === "phone") {
      const sections = page.getByLabel("Dashboard section");
      assert.deepEqual(await sections.locator("option").allTextContents(), SECTIONS);
      assert.equal(await page.getByRole("tablist", { name: "Dashboard" }).isVisible(), false, "the select stands for the tabs");
      await sections.selectOption({ label: "STEP 2: Build Campaign" });
    } else {
      const tabs = page.getByRole("tablist", { name: "Dashboard" }).getByRole("tab");
      assert.deepEqual(await tabs.allTextContents(), SECTIONS);
      const offScreen = await tabs.evaluateAll((items) => items.filter((item) => item.getBoundingClientRect().left < 0 || item.getBoundingClientRect().right > window.innerWidth).length);
      assert.equal(offScreen, 0, "every tab on screen");
      await page.getByRole("tab", { name: "Build Campaign" }).click();
    }
    await page.getByRole("button", { name: "Create New Campaign" }).click();
    await page.getByLabel("Campaign name").fill(`On the ${name}`);
    await page.getByRole("button", { name: "Save Campaign Name" }).click();
    await page.getByTestId("campaign-ready").waitFor();
    await step("1 campaign");
    await page.getByRole("button", { name: "Next Step: Find Businesses" }).click();
    const leads = ["name,email,website,phone", ...Array.from({ length: 30 }, (_, n) => `Cafe ${name} ${n},owner${n}@${name}${n}.example,https://${name}${n}.example,+358 40 ${n}`)].join("\n");
    await page.getByLabel("Import CSV").setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) });
    await page.getByText("Imported 30 businesses").waitFor();
    await page.getByText("Select all").click();
    await step("2 businesses");
    await page.getByRole("button", { name: "Proceed To Step 3" }).click();
    await page.getByRole("heading", { name: "STEP 3 OUT OF 6: Educate the AI" }).waitFor();
    await step("3 education");
    await page.getByRole("button", { name: "Proceed to Step 4" }).click();
    await page.getByRole("heading", { name: "STEP 4 OUT OF 6: Choose Email Template" }).waitFor();
    await page.getByRole("button", { name: "Use This Template" }).first().waitFor();
    await step("4 template");
    // The composer: a brief, the draft in the editor, previewed for a chosen business, saved as the template.
    await page.getByRole("button", { name: "Create a new template" }).click();
    const brief = page.getByRole("form", { name: "Email brief" });
    await brief.getByLabel("Template name").fill(`Written on the ${name}`);
    await brief.getByLabel("Service description").fill("Weekly sourdough deliveries");
    await brief.getByLabel("Value proposition").fill("Fresh bread without the early mornings");
    await brief.getByLabel("Your ask").fill("a free tasting next week");
    await brief.getByLabel("Email signature").fill("Ada");
    await page.getByRole("button", { name: "Generate Email" }).click();
    await page.getByRole("textbox", { name: "Email body" }).getByText("Would you be open to a free tasting next week?").waitFor();
    await page.getByTestId("business-preview").getByRole("button", { name: "Show Preview" }).click();
    await page.getByTestId("business-preview").getByTestId("preview-subject").waitFor();
    await step("4 composer");
    await page.getByRole("button", { name: "Save as Template" }).click();
    await page.getByRole("dialog", { name: "Save template" }).getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();
    await step("5 sender");
    await page.getByRole("button", { name: "Go To Step 6" }).click();
    await page.getByTestId("launch-check").getByText("30 emails to send", { exact: false }).waitFor();
    await step("6 launch");
    await page.getByRole("button", { name: "Launch Campaign" }).click();
    await page.getByRole("button", { name: "Send Now" }).click();
    await page.getByTestId("send-progress").getByText("Completed: 30 sent", { exact: false }).waitFor({ timeout: 20_000 });
    await step("6 sent");
    console.log(`# page heights on a ${name} (${viewport.width} px): ${JSON.stringify(heights)}`);

    // Issue 83.15: on a phone an opened conversation takes the place of the inbox's list and filters and comes into
    // view (it started 728 px down).
    if (name === "phone") {
      const outbox = await (await page.request.get(`${app.base}/api/outbox`)).json();
      const first = outbox.find((message) => message.toEmail === "owner0@phone0.example");
      const replied = await page.request.post(`${app.base}/api/outbox/${first.id}/reply`, { data: { body: "Yes please, a tasting on Tuesday works." } });
      assert.equal(replied.status(), 200);
      await page.getByLabel("Dashboard section").selectOption({ label: "Inbox" });
      await page.getByTestId("inbox-thread").filter({ hasText: "owner0@phone0.example" }).click();
      const conversation = page.getByRole("article", { name: "Conversation with owner0@phone0.example" });
      await conversation.getByRole("button", { name: "Send answer" }).waitFor();
      assert.equal(await page.locator("[aria-label='Inbox filters']").isVisible(), false, "the filters go with the list");
      const conversationTop = await conversation.evaluate((element) => element.getBoundingClientRect().top);
      console.log(`${name}: the opened conversation starts ${Math.round(conversationTop)} px down`);
      assert.ok(conversationTop >= 0 && conversationTop <= 300, `the conversation starts ${conversationTop} px down`);
    }
    await context.close();
  });
}
