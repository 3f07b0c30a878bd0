// Browser test of the admin panel (B §2.15, §5, §8) at /admin: lookup, free trial, premium with a limit, invite
// codes, the spec's validation messages and toasts, and that a member is refused.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

test("an administrator looks a user up, grants a trial and premium, and creates an invite code", async () => {
  // Ada exists once she has signed in.
  const member = await browser.newPage();
  await signIn(app, member, MEMBER);
  await member.goto(`${app.base}/admin`);
  await member.getByText("The admin panel is only available to administrators of this instance.").waitFor();
  await member.close();

  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.goto(`${app.base}/admin`);
  await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
  await page.getByText(`Signed in as ${ADMIN.email}`).waitFor();
  const toast = page.getByTestId("toast");

  // Lookup: the spec's message for an empty field, the server's for an unknown address, then the user.
  await page.getByRole("button", { name: "Look up" }).click();
  await page.getByRole("alert").getByText("Please enter a user email address").waitFor();
  await page.getByLabel("Lookup email").fill("nobody@example.org");
  await page.getByRole("button", { name: "Look up" }).click();
  await toast.getByText("No user found with email nobody@example.org").waitFor();
  await page.getByLabel("Lookup email").fill(MEMBER.email);
  await page.getByRole("button", { name: "Look up" }).click();
  const result = page.getByTestId("lookup-result");
  await result.waitFor();
  assert.match(await result.innerText(), /Emails used \(30 days\)\s+0/);

  // Free trial, with the toast as B §8 words it.
  await page.getByLabel("Free trial email").fill(MEMBER.email);
  await page.getByRole("button", { name: "Set Free Trial" }).click();
  await toast.getByText(`User ${MEMBER.email} has been set to free trial status`).waitFor();
  assert.equal(await page.getByLabel("Free trial email").inputValue(), "");

  // Premium: both fields, a whole number, then the grant.
  await page.getByLabel("Premium email").fill(MEMBER.email);
  await page.getByRole("button", { name: "Grant Premium" }).click();
  await page.getByText("Please enter both email address and email limit").waitFor();
  await page.getByLabel("Email limit").fill("2.5");
  await page.getByRole("button", { name: "Grant Premium" }).click();
  await page.getByText("Email limit must be a positive number").waitFor();
  await page.getByLabel("Email limit").fill("750");
  await page.getByRole("button", { name: "Grant Premium" }).click();
  await toast.getByText(`User ${MEMBER.email} has been granted premium access with 750 emails for 30 days`).waitFor();
  await page.getByLabel("Lookup email").fill(MEMBER.email);
  await page.getByRole("button", { name: "Look up" }).click();
  await page.getByTestId("lookup-result").getByText("750", { exact: true }).waitFor();

  // An invite code with a note appears in the list.
  await page.getByLabel("Invite note").fill("for the bakery");
  await page.getByRole("button", { name: "Create invite" }).click();
  await toast.getByText("Invite code created").waitFor();
  const invites = page.getByTestId("invites");
  await invites.getByText("for the bakery").waitFor();
  assert.equal(await page.getByLabel("Invite note").inputValue(), "");
  await page.close();
});
