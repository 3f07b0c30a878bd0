import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createQueryClient } from "@outreach/client/queryClient";
import { toast } from "@outreach/client/toast-store";
import { EDUCATION_FILES_LABEL, EducationStep } from "./EducationStep";
import type { Campaign } from "./api";

vi.mock("@outreach/client/toast-store", () => ({ toast: vi.fn() }));
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.mocked(toast).mockReset();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it("an upload the server refuses says why in the failure toast (issue 83.13)", async () => {
  const refusal = "notes.txt contains no text that could be extracted.";
  fetchMock.mockResolvedValue(new Response(JSON.stringify({ error: "validation", message: refusal }), { status: 422 }));
  const campaign = { id: 4, name: "Cafés", aiEducationText: "", aiEducationFiles: [] } as unknown as Campaign;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <EducationStep campaign={campaign} onSaved={() => {}} />
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByLabelText(EDUCATION_FILES_LABEL), { target: { files: [new File([" "], "notes.txt", { type: "text/plain" })] } });
  fireEvent.click(screen.getByRole("button", { name: "Save AI Education" }));
  await waitFor(() => expect(toast).toHaveBeenCalledWith({ variant: "destructive", title: "Failed to save AI education", description: refusal }));
});
