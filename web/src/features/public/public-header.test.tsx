import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, expect, it, vi } from "vitest";
import { PublicHeader } from "./PublicLayout";

const signedIn = vi.hoisted(() => ({ user: null as null | { id: number; firstName: string; email: string } }));
vi.mock("../../lib/auth", async (original) => ({
  ...(await original<typeof import("../../lib/auth")>()),
  useAuth: () => ({ user: signedIn.user, isLoading: false, isAuthenticated: signedIn.user !== null }),
}));

afterEach(cleanup);

function renderHeader() {
  render(
    <MemoryRouter>
      <PublicHeader />
    </MemoryRouter>,
  );
}

it("the root's header leads a signed-in user (there from the app's logo, issue 83.20) back to the dashboard", () => {
  signedIn.user = { id: 1, firstName: "Ada", email: "ada@example.org" };
  renderHeader();
  expect(screen.getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("/dashboard");
  expect(screen.queryByRole("link", { name: "Sign In" })).toBeNull();
});

it("offers a visitor Sign In", () => {
  signedIn.user = null;
  renderHeader();
  expect(screen.getByRole("link", { name: "Sign In" }).getAttribute("href")).toBe("/login");
});
