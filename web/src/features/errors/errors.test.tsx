import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { ErrorBoundary } from "./ErrorBoundary";
import { NotFoundPage } from "./NotFoundPage";

afterEach(cleanup);

function Broken(): never {
  throw new Error("boom in a component");
}

it("a crash shows 'Something went wrong' with reload, sign-out and the technical details", () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  render(
    <ErrorBoundary>
      <Broken />
    </ErrorBoundary>,
  );
  expect(screen.getByText("Something went wrong")).toBeTruthy();
  expect(screen.getByRole("button", { name: "Reload Page" })).toBeTruthy();
  expect(screen.getByRole("link", { name: "Sign Out" }).getAttribute("href")).toBe("/auth/logout");
  expect(screen.getByText("Technical details")).toBeTruthy();
  expect(screen.getByText(/boom in a component/)).toBeTruthy();
});

it("the not-found page has the spec's texts", () => {
  render(<NotFoundPage />);
  expect(screen.getByText("404 Page Not Found")).toBeTruthy();
  expect(screen.getByText("Did you forget to add the page to the router?")).toBeTruthy();
});
