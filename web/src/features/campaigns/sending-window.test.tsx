import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createQueryClient } from "@outreach/client/queryClient";
import { CAMPAIGNS_KEY, LAUNCH_CHECK_KEY, campaignProgressKey, type Campaign } from "./api";
import { SendingWindowForm } from "./SendingWindowForm";

vi.mock("@outreach/client/toast-store", () => ({ toast: vi.fn() }));

beforeEach(() => vi.stubGlobal("fetch", vi.fn(async () => new Response("{}", { status: 200 }))));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it("a saved sending window refreshes the campaign, the pre-launch check and the progress (issue 83.1)", async () => {
  const client = createQueryClient();
  const refreshed = vi.spyOn(client, "invalidateQueries");
  const campaign = { id: 9, sendingWindow: { days: ["mon"], start: "09:00", end: "17:00", timeZone: "UTC" } } as unknown as Campaign;
  render(
    <QueryClientProvider client={client}>
      <SendingWindowForm campaign={campaign} />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Save Sending Window" }));
  await waitFor(() => expect(refreshed).toHaveBeenCalledWith({ queryKey: LAUNCH_CHECK_KEY }));
  expect(refreshed).toHaveBeenCalledWith({ queryKey: CAMPAIGNS_KEY });
  expect(refreshed).toHaveBeenCalledWith({ queryKey: campaignProgressKey(9) });
  expect(campaignProgressKey(9)).toEqual(["/api/campaigns/9/progress"]);
});
