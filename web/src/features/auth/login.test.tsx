import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, expect, it, vi } from "vitest";
import { createQueryClient } from "@outreach/client/queryClient";
import type { AuthOptions } from "../../lib/auth";
import { LoginPage } from "./LoginPage";

const options = vi.hoisted(() => ({ current: {} as Partial<AuthOptions> }));
vi.mock("../../lib/auth", async (original) => ({
  ...(await original<typeof import("../../lib/auth")>()),
  useAuth: () => ({ user: null, isLoading: false, isAuthenticated: false }),
  useAuthOptions: () => ({ data: options.current }),
}));

afterEach(cleanup);

function renderLogin(offered: Partial<AuthOptions>) {
  options.current = offered;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <LoginPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const NOTE = "No Google account? You can create one during sign-in.";

it("notes that a Google account can be made during sign-in beside the Google button", () => {
  renderLogin({ google: true, localSignIn: false });
  expect(screen.getByRole("link", { name: "Continue with Google" })).toBeTruthy();
  expect(screen.getByText(NOTE)).toBeTruthy();
});

it("says nothing of Google accounts when Google sign-in is not configured (issue 83.16)", () => {
  renderLogin({ google: false, localSignIn: true });
  expect(screen.queryByRole("link", { name: "Continue with Google" })).toBeNull();
  expect(screen.queryByText(NOTE)).toBeNull();
  expect(screen.getByRole("button", { name: "Sign in locally" })).toBeTruthy();
});
