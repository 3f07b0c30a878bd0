// The whole builder at a phone's width and at a desktop's: every step reached through the stepper's flow, nothing
// wider than the screen, and one step in view, so no page grows past a bound (the stacked builder reached about
// 4,000 px on a phone at step 4). Prints each step's page height for the report.
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

/** The page's height and whether anything makes it scroll sideways. */
async function measure(page) {
  return page.evaluate(() => ({ height: document.documentElement.scrollHeight, wide: document.documentElement.scrollWidth > window.innerWidth }));
}

for (const [name, viewport, bound] of [
  ["phone", { width: 390, height: 844 }, 2600],
  ["desktop", { width: 1280, height: 900 }, 1800],
]) {
  test(`the builder from name to launch on a ${name} (${viewport.width} px)`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(app, page, MEMBER);
    await page.request.post(`${app.base}/api/email-templates`, { data: { name: `Intro ${name}`, subject: "Hello {{businessName}}", body: "<p>Hi [business name]</p>" } });
    const heights = {};
    const step = async (label) => {
      const { height, wide } = await measure(page);
      heights[label] = height;
      assert.equal(wide, false, `${label}: nothing scrolls sideways`);
      assert.ok(height <= bound, `${label}: ${height} px is over ${bound} px`);
    };

    await page.getByRole("tab", { name: "Build Campaign" }).click();
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
    await page.getByRole("button", { name: "Use This Template" }).first().click();
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
    await context.close();
  });
}
