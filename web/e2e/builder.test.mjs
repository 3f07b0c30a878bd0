// The campaign builder in the browser: create and name a campaign, teach the AI with text and a PDF, draft with
// the offline writer, adjust, save as a template, edit it with Ctrl+B and a link, build a follow-up sequence, and
// find everything again after a reload; a stale stored campaign id is cleared.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { pdf } from "./fixtures.mjs";
import { ADMIN, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

test("a campaign from name to template and follow-ups, persisted across a reload", async () => {
  const page = await browser.newPage();
  page.on("dialog", (dialog) => (dialog.type() === "prompt" ? dialog.accept("https://bakery.example/menu") : dialog.accept()));
  await signIn(app, page, ADMIN);
  await page.getByRole("heading", { name: "STEP 1 OF 6: Currently Working On This Campaign" }).waitFor();

  // Name step: validation, then saved and locked.
  await page.getByRole("button", { name: "Create New Campaign" }).click();
  await page.getByRole("button", { name: "Save Campaign Name" }).click();
  await page.getByText("Campaign name required: Please enter a descriptive name for your campaign").waitFor();
  await page.getByLabel("Campaign name").fill("Helsinki cafés");
  await page.getByRole("button", { name: "Save Campaign Name" }).click();
  await page.getByTestId("campaign-name-locked").getByText("Helsinki cafés").waitFor();
  assert.ok(Number(await page.evaluate(() => localStorage.getItem("currentCampaignId"))) > 0);
  assert.equal(await page.evaluate(() => localStorage.getItem("campaignName")), "Helsinki cafés");

  // Steps 2 and 3: education text and a PDF.
  await page.getByRole("button", { name: "Next Step: Find Businesses" }).click();
  await page.getByRole("heading", { name: "STEP 2 OUT OF 6: Find Businesses" }).waitFor();
  // Recipients are explicit: nothing ticked, no proceeding.
  const leads = "name,email\nCafé Ursula,hello@ursula.example\nNo Mail Deli,\n";
  await page.getByLabel("Import CSV").setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(leads) });
  await page.getByText("Imported 2 businesses").waitFor();
  assert.equal(await page.getByRole("button", { name: "Proceed To Step 3" }).isDisabled(), true);
  await page.getByTestId("selection").getByText("Tick the businesses to email, then proceed.").waitFor();
  await page.getByLabel("Select Café Ursula").check();
  await page.getByTestId("selection").getByText("1 selected, 1 with an email address").waitFor();
  await page.getByRole("button", { name: "Proceed To Step 3" }).click();
  await page.getByLabel("Teach the AI about your business").fill("Nordic Bakery delivers sourdough to cafés.");
  const files = page.getByLabel("Files (PDF, TXT, DOCX; up to 10 MB each)");
  await files.setInputFiles({ name: "about.pdf", mimeType: "application/pdf", buffer: pdf(["We have baked in Helsinki since 1989."]) });
  await page.getByRole("button", { name: "Save AI Education" }).click();
  await page.getByRole("list", { name: "Saved files" }).getByText("about.pdf").waitFor();
  await files.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("png") });
  await page.getByText("logo.png is not a supported file type. Please upload PDF or text files only.").waitFor();
  // A legacy Word file is refused when picked, saying what can be read; a file the server cannot read says why
  // (issue 83.13).
  await files.setInputFiles({ name: "prices.doc", mimeType: "application/msword", buffer: Buffer.from("doc") });
  await page.getByRole("alert").getByText("prices.doc is a legacy Word .doc file, which cannot be read. Please save it as .docx or PDF and upload it again.").waitFor();
  await files.setInputFiles({ name: "blank.txt", mimeType: "text/plain", buffer: Buffer.from("   ") });
  await page.getByRole("button", { name: "Save AI Education" }).click();
  const refusal = page.getByTestId("toast").filter({ hasText: "Failed to save AI education" });
  await refusal.getByText("blank.txt contains no text that could be extracted.").waitFor();

  // Step 4: the composer with the offline writer, an adjustment, and saving as a template.
  await page.getByRole("button", { name: "Proceed to Step 4" }).click();
  await page.getByRole("button", { name: "Create a new template" }).click();
  await page.getByRole("button", { name: "Generate Email" }).click();
  await page.getByText("Template name is required").waitFor();
  const brief = page.getByRole("form", { name: "Email brief" });
  await brief.getByLabel("Template name").fill("Café intro");
  await brief.getByLabel("Service description").fill("sourdough delivered every morning");
  await brief.getByLabel("Value proposition").fill("your café never runs out of bread");
  await brief.getByLabel("Your ask").fill("Can I bring a free sample on Tuesday");
  await brief.getByLabel("Tone").selectOption("friendly");
  await brief.getByLabel("Email signature").fill("Ada Baker");
  await page.getByRole("button", { name: "Generate Email" }).click();
  await page.getByTestId("writer").getByText("Drafted by the offline writer").waitFor();
  const generated = page.getByRole("region", { name: "Generated email" });
  // A short subject of whole words, and the body in the rich-text editor, rendered, not as HTML source.
  assert.equal(await generated.getByLabel("Subject").inputValue(), "An idea for you: sourdough delivered every morning");
  const draftBody = generated.getByRole("textbox", { name: "Email body" });
  await draftBody.getByText("since 1989", { exact: false }).waitFor();
  assert.ok(!(await draftBody.innerText()).includes("<p>"), "rendered, not source");
  // One call to action: the ask, as the question it is.
  assert.equal((await draftBody.innerText()).split("?").length - 1, 1);
  // The variable picker inserts at the cursor; the preview shows the email as the chosen business gets it.
  await draftBody.getByText("Kind regards,", { exact: false }).or(draftBody.getByText("Best wishes,", { exact: false })).click();
  await page.keyboard.press("End");
  await generated.getByLabel("Insert a variable into Email body").selectOption({ label: "City" });
  await draftBody.getByText("{{city | your area}}", { exact: false }).waitFor();
  const draftPreview = generated.getByTestId("business-preview");
  assert.equal(await draftPreview.getByLabel("Preview for").locator("option:checked").textContent(), "Café Ursula");
  await draftPreview.getByRole("button", { name: "Show Preview" }).click();
  await draftPreview.frameLocator("iframe[title='Template body']").getByText("Hi Café Ursula,").waitFor();
  await draftPreview.frameLocator("iframe[title='Template body']").getByText("your area", { exact: false }).waitFor();
  await page.getByTestId("rates").getByText("baseline estimate").waitFor();
  await generated.getByLabel("Adjustments").fill("shorter");
  await page.getByRole("button", { name: "Apply Adjustments" }).click();
  await page.getByText("Adjustments: made shorter").waitFor();
  await page.getByRole("button", { name: "Save as Template" }).click();
  const saveDialog = page.getByRole("dialog", { name: "Save template" });
  assert.equal(await saveDialog.getByLabel("Template name").inputValue(), "Café intro");
  await saveDialog.getByLabel("Template name").fill("");
  assert.equal(await saveDialog.getByRole("button", { name: "Save" }).isDisabled(), true);
  await saveDialog.getByLabel("Template name").fill("Café intro");
  await saveDialog.getByRole("button", { name: "Save" }).click();
  await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();

  // The Email Templates tab: edit with Ctrl+B and a link.
  await page.getByRole("tab", { name: "Email Templates" }).click();
  const card = page.getByRole("article", { name: "Café intro" });
  await card.getByRole("button", { name: "Edit" }).click();
  // A variable personalisation does not know is refused, and said under the field that holds it.
  const subject = page.getByRole("dialog", { name: "Edit template" }).getByLabel("Subject");
  const original = await subject.inputValue();
  await subject.fill("Hi {{firstName}}");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.getByRole("dialog", { name: "Edit template" }).getByRole("alert").getByText("Unknown variable {{firstName}}", { exact: false }).waitFor();
  assert.equal(await subject.getAttribute("aria-invalid"), "true");
  await subject.fill(original);
  const editor = page.getByRole("textbox", { name: "Template body" });
  await editor.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Control+b");
  await page.getByRole("button", { name: "Link" }).click();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.getByText("Template updated").waitFor();

  // Three follow-ups, then one removed.
  await card.getByRole("button", { name: "Follow-ups" }).click();
  const followUps = page.getByRole("dialog", { name: "Follow-ups: Café intro" });
  // Saving an empty follow-up names the follow-up and the fields it lacks.
  await followUps.getByRole("button", { name: "Save Follow-ups" }).click();
  await followUps.getByText("Follow-up 1 needs a subject").waitFor();
  await followUps.getByText("Follow-up 1 needs a body").waitFor();
  assert.equal(await followUps.getByLabel("Subject of follow-up 1").getAttribute("aria-invalid"), "true");
  for (const n of [1, 2, 3]) {
    if (n > 1) await followUps.getByRole("button", { name: "Add Follow-up" }).click();
    await followUps.getByLabel(`Subject of follow-up ${n}`).fill(`Checking in #${n}`);
    await followUps.getByRole("textbox", { name: `Body of follow-up ${n}` }).click();
    await page.keyboard.type(`Just following up, number ${n}.`);
  }
  await followUps.getByRole("listitem", { name: "Follow-up Email #2" }).getByRole("button", { name: "Remove" }).click();
  // Issue 81: a follow-up step holds A/B variants too.
  const firstStep = followUps.getByRole("listitem", { name: "Follow-up Email #1" });
  await firstStep.getByRole("button", { name: "Add variant B" }).click();
  await firstStep.getByLabel("Subject of variant B").fill("A quick question, #1");
  await firstStep.getByRole("textbox", { name: "Body of variant B" }).click();
  await page.keyboard.type("Would a sample help?");
  // Timed from sending, for prospects whose opens are never seen.
  await followUps.getByLabel("Days after the previous email was sent", { exact: false }).check();
  await followUps.getByRole("button", { name: "Save Follow-ups" }).click();
  await page.getByText("Follow-up emails saved").waitFor();

  // Previewed for one business: the greeting's placeholder is filled in.
  await card.getByRole("button", { name: "View" }).click();
  const preview = page.getByRole("dialog", { name: "Preview: Café intro" });
  await preview.getByLabel("Business name").fill("Café Ursula");
  await preview.getByRole("button", { name: "Preview for this business" }).click();
  const body = preview.frameLocator("iframe[title='Template body']");
  await body.getByText("Hi Café Ursula,").waitFor();
  // A business's data is shown as text in the sandboxed frame, never run (it used to fire in the app).
  await preview.getByLabel("Business name").fill(`<img src=x onerror="top.document.title='pwned'">`);
  await preview.getByRole("button", { name: "Preview for this business" }).click();
  await body.getByText(`Hi <img src=x onerror="top.document.title='pwned'">,`).waitFor();
  assert.notEqual(await page.title(), "pwned");
  await page.keyboard.press("Escape");

  // After a reload everything is still there.
  await page.reload();
  await page.getByRole("tab", { name: "Email Templates" }).waitFor();
  const [template] = await (await page.request.get(`${app.base}/api/email-templates`)).json();
  assert.equal(template.name, "Café intro");
  assert.ok(template.body.includes("<strong>"), template.body);
  assert.ok(template.body.includes('href="https://bakery.example/menu"'), template.body);
  const sequence = await (await page.request.get(`${app.base}/api/follow-up-templates/${template.id}`)).json();
  assert.deepEqual(sequence.map((item) => [item.subject, item.delayDays]), [["Checking in #1", 3], ["Checking in #3", 3]]);
  assert.deepEqual(sequence.map((item) => item.variants.map((variant) => variant.subject)), [["A quick question, #1"], []]);
  assert.equal(template.followUpTiming, "after_send");
  const [campaign] = await (await page.request.get(`${app.base}/api/campaigns`)).json();
  assert.deepEqual(
    [campaign.name, campaign.status, campaign.aiEducationFiles, campaign.businessIds.length, campaign.builderStep, campaign.templateId],
    ["Helsinki cafés", "template_selected", ["about.pdf"], 1, 5, template.id],
  );
  await page.getByRole("tab", { name: "Email Templates" }).click();
  await page.getByRole("article", { name: "Café intro" }).getByRole("button", { name: "Follow-ups" }).click();
  const reopened = page.getByRole("dialog", { name: "Follow-ups: Café intro" });
  await reopened.getByLabel("Subject of follow-up 2").waitFor();
  assert.equal(await reopened.getByLabel("Subject of follow-up 2").inputValue(), "Checking in #3");
  assert.equal(await reopened.getByRole("listitem").count(), 2);
  await page.keyboard.press("Escape");
  await page.getByRole("tab", { name: "Build Campaign" }).click();
  // The builder resumes at step 5 with the template chosen, one step in view; the stepper sums up the others.
  await page.getByRole("heading", { name: "STEP 5 OUT OF 6: Sender Configuration" }).waitFor();
  await page.getByText("Template Café intro is chosen.").waitFor();
  const steps = page.getByRole("navigation", { name: "Campaign steps" });
  assert.match(await steps.locator("[aria-current=step]").textContent(), /^5\. Sender Configuration/);
  await steps.getByRole("button", { name: /2\. Find Businesses.*1 business selected/ }).waitFor();
  await steps.getByRole("button", { name: /4\. Choose Email Template.*Café intro/ }).waitFor();
  assert.equal(await page.getByRole("heading", { name: /STEP 2 OUT OF 6/ }).count(), 0, "one step in view");
  // Step 2 shows the one business ticked; step 1 the saved name.
  await steps.getByRole("button", { name: /2\. Find Businesses/ }).click();
  assert.equal(await page.getByLabel("Select Café Ursula").isChecked(), true);
  await page.getByTestId("selection").getByText("1 selected, 1 with an email address").waitFor();
  await steps.getByRole("button", { name: /1\. Campaign/ }).click();
  await page.getByTestId("campaign-name-locked").getByText("Helsinki cafés").waitFor();
  await page.close();
});

test("a stored campaign id that is not the user's is cleared", async () => {
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.evaluate(() => {
    localStorage.setItem("currentCampaignId", "999999");
    localStorage.setItem("campaignName", "Someone else's");
  });
  await page.reload();
  await page.getByRole("heading", { name: "STEP 1 OF 6: Currently Working On This Campaign" }).waitFor();
  await page.waitForFunction(() => localStorage.getItem("currentCampaignId") === null);
  assert.equal(await page.evaluate(() => localStorage.getItem("campaignName")), null);
  await page.close();
});
