import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, expect, it, vi } from "vitest";
import { AppShell } from "./app-shell";

vi.mock("../lib/auth", async (original) => ({
  ...(await original<typeof import("../lib/auth")>()),
  useAuth: () => ({ user: { id: 1, firstName: "Ada", email: "ada@example.org" }, isLoading: false, isAuthenticated: true }),
}));

afterEach(cleanup);

it("the app's logo links to the root, as A §2 and B §2.3 say (issue 83.20)", () => {
  render(
    <MemoryRouter>
      <AppShell>page</AppShell>
    </MemoryRouter>,
  );
  expect(screen.getByRole("link", { name: "AI Outreach Agent" }).getAttribute("href")).toBe("/");
});
