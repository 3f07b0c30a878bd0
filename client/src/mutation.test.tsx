import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "./toast-store";
import { ACCOUNT_STATUS_ERROR } from "./events";
import { useApiMutation } from "./mutation";
import { createQueryClient } from "./queryClient";
import { requestJson } from "./request";

vi.mock("./toast-store", () => ({ toast: vi.fn() }));
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.mocked(toast).mockReset();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function setup(path = "/api/email-templates") {
  const client = createQueryClient();
  const invalidated = vi.spyOn(client, "invalidateQueries");
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { result } = renderHook(
    () =>
      useApiMutation({
        mutationFn: (name: string) => requestJson<{ id: number }>("POST", path, { name }),
        success: (data) => ({ title: "Template Created", description: `Template ${data.id} saved` }),
        failure: { title: "Error", description: "Failed to create template" },
        invalidates: [["/api/email-templates"]],
      }),
    { wrapper },
  );
  return { result, invalidated };
}

describe("useApiMutation", () => {
  it("is busy while the request runs, then toasts the answer and refreshes the named queries", async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { result, invalidated } = setup();
    act(() => result.current.mutate("Intro"));
    await waitFor(() => expect(result.current.isPending).toBe(true));
    answer(new Response(JSON.stringify({ id: 7 }), { status: 201 }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ name: "Intro" });
    expect(toast).toHaveBeenCalledWith({ title: "Template Created", description: "Template 7 saved" });
    expect(invalidated).toHaveBeenCalledWith({ queryKey: ["/api/email-templates"] });
  });

  it("toasts the server's message on failure, else the fallback, and refreshes nothing", async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ error: "validation", message: "Template name is required" }), { status: 400 }));
    fetchMock.mockResolvedValueOnce(new Response("", { status: 500 }));
    const { result, invalidated } = setup();
    await act(() => result.current.mutateAsync("").catch(() => undefined));
    expect(toast).toHaveBeenLastCalledWith({ variant: "destructive", title: "Error", description: "Template name is required" });
    await act(() => result.current.mutateAsync("").catch(() => undefined));
    expect(toast).toHaveBeenLastCalledWith({ variant: "destructive", title: "Error", description: "Failed to create template" });
    expect(invalidated).not.toHaveBeenCalled();
  });

  it("raises the account-status event on a 403 of a gated endpoint", async () => {
    const seen: string[] = [];
    window.addEventListener(ACCOUNT_STATUS_ERROR, (event) => seen.push((event as CustomEvent<{ message: string }>).detail.message));
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ error: "forbidden", message: "Subscription expired" }), { status: 403 }));
    const { result } = setup("/api/campaigns");
    await act(() => result.current.mutateAsync("Intro").catch(() => undefined));
    expect(seen).toEqual(["Subscription expired"]);
  });
});
