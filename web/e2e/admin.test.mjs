// Browser test of the operator console at /admin (B §2.15, §5, §8; issue 22): a member is refused; the home page's
// lookup, free trial and premium with the spec's messages and toasts; users listed and filtered, premium granted
// from a user's page; a failed job retried until it is done; an address added to and removed from the suppression
// list with a reason; an invite created and revoked; and all of it read back in the audit log.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, test } from "node:test";
import { ADMIN, MEMBER, NEWCOMER, signIn, startStack } from "./support.mjs";

let stack;
let app;
let browser;

before(async () => {
  stack = await startStack();
  ({ app, browser } = stack);
});

after(async () => stack?.stop());

test("the home page looks a user up and grants a trial and premium with the spec's words", async () => {
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
  await page.getByText("Please enter a user email address").waitFor();
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
  // B §8: the server's words are the toast itself (its title), not a description under "Success".
  await toast.getByTestId("toast-title").getByText(`User ${MEMBER.email} has been set to free trial status`).waitFor();
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
  await toast.getByTestId("toast-title").getByText(`User ${MEMBER.email} has been granted premium access with 750 emails for 30 days`).waitFor();
  await page.getByLabel("Lookup email").fill(MEMBER.email);
  await page.getByRole("button", { name: "Look up" }).click();
  await page.getByTestId("lookup-result").getByText("750", { exact: true }).waitFor();
  await page.close();
});

test("an administrator lists and filters users, grants premium, retries a failed job, manages the suppression list and invites, and reads it all in the audit log", async () => {
  for (const person of [MEMBER, NEWCOMER]) {
    const other = await browser.newPage();
    await signIn(app, other, person); // the newcomer waits on the beta screen
    await other.close();
  }
  const page = await browser.newPage();
  await signIn(app, page, ADMIN);
  await page.goto(`${app.base}/admin`);
  const toast = page.getByTestId("toast");
  const main = page.locator("#main-content");

  // Users: all of them, then those waiting for access, then a search.
  await page.getByRole("menuitem", { name: "Users" }).click();
  await page.waitForURL(/\/admin\/users/);
  for (const person of [ADMIN, MEMBER, NEWCOMER]) await main.getByText(person.email).waitFor();
  const choose = async (label, option) => {
    await page.getByRole("combobox", { name: label }).click();
    await page.getByRole("listbox").getByText(option, { exact: true }).click();
    await page.getByRole("listbox").waitFor({ state: "detached" });
  };
  await choose("Group", "Waiting for access");
  await main.getByText(ADMIN.email).waitFor({ state: "detached" });
  await main.getByText(NEWCOMER.email).waitFor();
  await choose("Group", "All users");
  await page.getByPlaceholder("Email or name").fill("turing");
  await main.getByText(MEMBER.email).waitFor({ state: "detached" });
  await main.getByText(NEWCOMER.email).click();

  // The newcomer let in, then premium from the user's page, with the spec's toast.
  await page.waitForURL(/\/admin\/users\/\d+\/show/);
  await page.getByRole("button", { name: "Activate" }).click();
  await page.getByRole("button", { name: "Deactivate" }).waitFor();
  await page.getByLabel("Email limit").fill("900");
  await page.getByRole("button", { name: "Grant Premium" }).click();
  await toast.getByText(`User ${NEWCOMER.email} has been granted premium access with 900 emails for 30 days`).waitFor();
  await main.getByText("0 of 900").waitFor();

  // A job that failed on its last attempt is retried and the worker completes it.
  // The app holds the database too: wait for its lock rather than fail.
  execFileSync("sqlite3", ["-cmd", ".timeout 10000", app.database, `insert into Jobs (job, id, job_type, status, attempts, max_attempts, run_at, done_at, last_result)
    values (cast('{"tick":"e2e"}' as blob), '01JE2E000000000000000RETRY', 'ExpireSubscriptions', 'Failed', 1, 1, strftime('%s','now'), strftime('%s','now'), '{"Err":"database is locked"}')`]);
  await page.getByRole("menuitem", { name: "Jobs" }).click();
  await choose("Status", "Failed");
  const failed = main.getByRole("row").filter({ hasText: "01JE2E000000000000000RETRY" });
  await failed.getByText("database is locked").waitFor();
  await failed.getByRole("button", { name: "Retry" }).click();
  await toast.getByText("Done").first().waitFor();
  await choose("Status", "Done");
  for (let attempt = 0; attempt < 40; attempt++) {
    if (await main.getByText("01JE2E000000000000000RETRY").count()) break;
    await page.waitForTimeout(250);
    await page.getByRole("button", { name: "Refresh" }).click();
  }
  await main.getByText("01JE2E000000000000000RETRY").waitFor();

  // The suppression list: an address added with a reason, then removed with another.
  await page.getByRole("menuitem", { name: "Suppression list" }).click();
  await page.getByRole("link", { name: "Create" }).click();
  await page.getByLabel("Email").fill("spam@example.org");
  await page.getByLabel("Reason (kept in the audit log)").fill("asked by phone");
  await page.getByRole("button", { name: "Save" }).click();
  const row = main.getByRole("row").filter({ hasText: "spam@example.org" });
  await row.getByText("admin", { exact: true }).waitFor();
  await row.getByRole("button", { name: "Remove" }).click();
  await row.getByRole("button", { name: "Confirm removal" }).click();
  await toast.getByText("Please give a reason for removing this address").waitFor();
  await page.getByLabel("Reason for removing spam@example.org").fill("the owner asked to hear from us again");
  await row.getByRole("button", { name: "Confirm removal" }).click();
  await toast.getByText("spam@example.org was removed from the suppression list").waitFor();
  await main.getByText("spam@example.org").waitFor({ state: "detached" });

  // An invite with a note, then revoked.
  await page.getByRole("menuitem", { name: "Invites" }).click();
  await page.getByRole("link", { name: "Create" }).click();
  await page.getByLabel("Who is it for? (optional)").fill("for the bakery");
  await page.getByRole("button", { name: "Save" }).click();
  const invite = main.getByRole("row").filter({ hasText: "for the bakery" });
  await invite.getByRole("button", { name: "Revoke" }).click();
  await toast.getByText("Invite code revoked").waitFor();
  await invite.getByRole("button", { name: "Revoke" }).waitFor({ state: "detached" });

  // The audit log: every change, newest first, with who did it; the removal keeps its reason and the address before.
  await page.getByRole("menuitem", { name: "Audit log" }).click();
  const entries = main.getByRole("row");
  for (const action of ["invite.revoke", "invite.create", "unsubscribe.remove", "unsubscribe.add", "job.retry", "user.premium", "user.activate"]) {
    await main.getByText(action, { exact: true }).first().waitFor();
  }
  const removal = entries.filter({ hasText: "unsubscribe.remove" });
  assert.match(await removal.innerText(), /boss@example\.org[\s\S]*the owner asked to hear from us again/);
  await removal.getByText("unsubscribe.remove").click();
  await main.getByText(/Before: \{[\s\S]*"source": "admin"/).waitFor();
  await page.close();
});
