import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createQueryClient } from "@outreach/client/queryClient";
import { SWITCH_TAB } from "@outreach/client/events";
import { TEMPLATES_KEY } from "./api";
import { TemplatesTab } from "./TemplateChooser";

// Requests are recorded and never answered: what matters is what is asked, and of which path.
const fetchMock = vi.fn<typeof fetch>(() => new Promise(() => {}));
beforeEach(() => {
  fetchMock.mockClear();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it("Create New Template opens the composer in the Templates tab, for no campaign (issue 83.2)", async () => {
  const switched = vi.fn();
  window.addEventListener(SWITCH_TAB, switched);
  const client = createQueryClient();
  client.setQueryData(TEMPLATES_KEY, []);
  render(
    <QueryClientProvider client={client}>
      <TemplatesTab />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Create New Template" }));
  expect(switched).not.toHaveBeenCalled();
  const brief = screen.getByRole("form", { name: "Email brief" });
  for (const [label, value] of [["Template name", "Spring"], ["Service description", "bread"], ["Value proposition", "fresh"], ["Your ask", "a call?"], ["Email signature", "Ada"]]) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
  fireEvent.submit(brief);
  await waitFor(() => expect(fetchMock).toHaveBeenCalled());
  const [url, init] = fetchMock.mock.calls[0];
  expect(String(url)).toMatch(/\/api\/emails\/generate$/);
  expect(JSON.parse(String(init?.body))).toMatchObject({ templateName: "Spring", campaignId: null });
  window.removeEventListener(SWITCH_TAB, switched);
});
