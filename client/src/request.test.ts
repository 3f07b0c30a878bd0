import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_STATUS_ERROR, type AccountStatusErrorDetail } from "./events";
import { apiRequest, getQueryFn, httpStatusText, isGatedPath, resolveBaseUrl, serverMessage } from "./request";

const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body: string, statusText = "") {
  return new Response(body || null, { status, statusText });
}

function captureStatusEvents(): AccountStatusErrorDetail[] {
  const seen: AccountStatusErrorDetail[] = [];
  window.addEventListener(ACCOUNT_STATUS_ERROR, (event) => seen.push((event as CustomEvent).detail));
  return seen;
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe("base address", () => {
  it("uses the page's origin by default", () => {
    expect(resolveBaseUrl({ origin: "http://127.0.0.1:8080", hostname: "127.0.0.1" }, undefined)).toBe("http://127.0.0.1:8080");
  });
  it("uses the production origin on the production domain and its www form only", () => {
    const production = "https://outreach.example.com";
    expect(resolveBaseUrl({ origin: "https://www.outreach.example.com", hostname: "www.outreach.example.com" }, production)).toBe(production);
    expect(resolveBaseUrl({ origin: "https://outreach.example.com", hostname: "outreach.example.com" }, `${production}/`)).toBe(production);
    expect(resolveBaseUrl({ origin: "https://staging.example.com", hostname: "staging.example.com" }, production)).toBe("https://staging.example.com");
  });
});

describe("apiRequest", () => {
  it("sends cookies and a JSON content type only with a body", async () => {
    fetchMock.mockResolvedValue(answer(200, "{}"));
    await apiRequest("POST", "/api/admin/invites", { note: "x" });
    await apiRequest("DELETE", "/api/thing/1");
    const [withBody, without] = fetchMock.mock.calls;
    expect(withBody[0]).toBe(`${window.location.origin}/api/admin/invites`);
    expect(withBody[1]).toMatchObject({ method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body: '{"note":"x"}' });
    expect(without[1]).toMatchObject({ method: "DELETE", credentials: "include", headers: {}, body: undefined });
  });

  it("throws 'status: body' and falls back to the status text", async () => {
    fetchMock.mockResolvedValueOnce(answer(422, '{"error":"validation_failed","message":"Nope"}'));
    await expect(apiRequest("POST", "/api/x", {})).rejects.toThrow('422: {"error":"validation_failed","message":"Nope"}');
    fetchMock.mockResolvedValueOnce(answer(500, "", "Internal Server Error"));
    await expect(apiRequest("GET", "/api/x")).rejects.toThrow("500: Internal Server Error");
  });

  it("emits the account-status event for a 403 on a gated path, with the body's message", async () => {
    const seen = captureStatusEvents();
    fetchMock.mockResolvedValueOnce(answer(403, '{"error":"account_inactive","message":"Account inactive or subscription expired"}'));
    await expect(apiRequest("GET", "/api/campaigns")).rejects.toThrow(/^403: /);
    fetchMock.mockResolvedValueOnce(answer(403, '{"error":"Subscription expired"}'));
    await expect(apiRequest("POST", "/api/businesses/search", {})).rejects.toThrow(/^403: /);
    fetchMock.mockResolvedValueOnce(answer(403, "not json"));
    await expect(apiRequest("GET", "/api/emails/sent")).rejects.toThrow(/^403: /);
    expect(seen).toEqual([
      { status: 403, message: "Account inactive or subscription expired" },
      { status: 403, message: "Subscription expired" },
      { status: 403, message: "Account inactive" },
    ]);
  });

  it("opens it for the gate's answer on any product path (automations, responses, follow-ups)", async () => {
    const seen = captureStatusEvents();
    for (const path of ["/api/automations", "/api/email-responses/analytics", "/api/followup-cronjob/pending"]) {
      fetchMock.mockResolvedValueOnce(answer(403, '{"error":"account_inactive","message":"Account inactive"}'));
      await expect(apiRequest("GET", path)).rejects.toThrow(/^403: /);
    }
    expect(seen).toEqual([1, 2, 3].map(() => ({ status: 403, message: "Account inactive" })));
  });

  it("does not open the paywall for a 403 elsewhere", async () => {
    const seen = captureStatusEvents();
    fetchMock.mockResolvedValueOnce(answer(403, '{"error":"forbidden","message":"Administrator access required"}'));
    await expect(apiRequest("GET", "/api/admin/invites")).rejects.toThrow("403: ");
    expect(seen).toEqual([]);
    expect(isGatedPath("/api/admin/invites")).toBe(false);
    expect(isGatedPath("/api/campaigns/12/details")).toBe(true);
  });
});

describe("default loader", () => {
  it("GETs the first key element with cookies and returns null on 401", async () => {
    fetchMock.mockResolvedValueOnce(answer(401, '{"error":"unauthorized"}'));
    const load = getQueryFn<{ id: number }>({ on401: "returnNull" });
    const context = { queryKey: ["/api/auth/user", "ignored"] } as unknown as Parameters<typeof load>[0];
    await expect(load(context)).resolves.toBeNull();
    expect(fetchMock.mock.calls[0][0]).toBe(`${window.location.origin}/api/auth/user`);
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ credentials: "include" });

    fetchMock.mockResolvedValueOnce(answer(200, '{"id":7}'));
    await expect(load(context)).resolves.toEqual({ id: 7 });
  });

  it("throws on 401 when asked to", async () => {
    fetchMock.mockResolvedValueOnce(answer(401, "Authentication required"));
    const load = getQueryFn({ on401: "throw" });
    await expect(load({ queryKey: ["/api/x"] } as unknown as Parameters<typeof load>[0])).rejects.toThrow("401: Authentication required");
  });
});

it("says 'HTTP {status}' of a failed request (B §8)", () => {
  expect(httpStatusText(new Error("502: Bad Gateway"))).toBe("HTTP 502");
  expect(httpStatusText(new Error("network down"))).toBeUndefined();
});

it("reads the server's message out of a thrown error", () => {
  expect(serverMessage(new Error('422: {"error":"x","message":"Please enter your invite code"}'))).toBe("Please enter your invite code");
  expect(serverMessage(new Error("500: Internal Server Error"))).toBeUndefined();
});
