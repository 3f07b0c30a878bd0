/**
 * The request helper and default query loader of A §7 and §8: cookies on every call, the base-address rule,
 * a JSON content type only with a body, 401 → null in the loader, "status: body" errors, and the paywall event
 * for a 403 on a subscription-gated endpoint.
 */
import type { QueryFunction } from "@tanstack/react-query";
import { emitAccountStatusError } from "./events";

/** Endpoints whose 403 means "account inactive or subscription expired" (A §6). */
export const GATED_PATHS = ["/api/businesses/search", "/api/campaigns", "/api/emails", "/api/templates"];

export const DEFAULT_INACTIVE_MESSAGE = "Account inactive";
export const INACTIVE_FALLBACK = "Account inactive or subscription expired";

/**
 * Where API paths go: the production origin when the page runs on the production domain or its www form,
 * otherwise the page's own origin. The production origin is optional build configuration.
 */
export function resolveBaseUrl(
  location: Pick<Location, "origin" | "hostname">,
  productionOrigin: string | undefined = import.meta.env.VITE_PRODUCTION_ORIGIN,
): string {
  if (productionOrigin) {
    const productionHost = new URL(productionOrigin).hostname;
    if (location.hostname === productionHost || location.hostname === `www.${productionHost}`) {
      return productionOrigin.replace(/\/$/, "");
    }
  }
  return location.origin;
}

export function apiUrl(path: string): string {
  return path.startsWith("/") ? `${resolveBaseUrl(window.location)}${path}` : path;
}

export function isGatedPath(path: string): boolean {
  return GATED_PATHS.some((gated) => path.includes(gated));
}

/** The server's gate answers `{"error": "account_inactive"}` on every product endpoint, including those beyond the
 * spec's list (automations, responses, follow-ups), so its code alone also means the account is shut. */
function isInactiveAnswer(text: string): boolean {
  try {
    return (JSON.parse(text) as { error?: unknown }).error === "account_inactive";
  } catch {
    return false;
  }
}

/** Throws "status: body" for a non-OK answer; a gated 403 first emits the account-status-error event. */
export async function throwIfResNotOk(response: Response, path: string): Promise<void> {
  if (response.ok) return;
  const text = (await response.text()) || response.statusText;
  if (response.status === 403 && (isGatedPath(path) || isInactiveAnswer(text))) {
    const message = messageFromBody(text) ?? DEFAULT_INACTIVE_MESSAGE;
    emitAccountStatusError({ status: 403, message });
    throw new Error(`403: ${text || INACTIVE_FALLBACK}`);
  }
  throw new Error(`${response.status}: ${text}`);
}

/** The human text of an error body: its `message`, else its `error` field. */
function messageFromBody(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const value = body.message ?? body.error;
    return typeof value === "string" && value ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Sends JSON, or a file upload as multipart when the body is FormData (the browser sets its content type). */
export async function apiRequest(method: string, path: string, body?: unknown): Promise<Response> {
  const upload = body instanceof FormData;
  const response = await fetch(apiUrl(path), {
    method,
    credentials: "include",
    headers: body !== undefined && !upload ? { "Content-Type": "application/json" } : {},
    body: upload ? body : body !== undefined ? JSON.stringify(body) : undefined,
  });
  await throwIfResNotOk(response, path);
  return response;
}

/** A call whose answer is JSON: the one helper every screen uses for its requests. */
export async function requestJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await (await apiRequest(method, path, body)).json()) as T;
}

type On401 = "returnNull" | "throw";

/** The default loader: GET on the first element of the query key; 401 gives null when asked to. */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const path = String(queryKey[0]);
    const response = await fetch(apiUrl(path), { credentials: "include" });
    if (on401 === "returnNull" && response.status === 401) return null;
    await throwIfResNotOk(response, path);
    return (await response.json()) as T;
  };
}

/** 'HTTP {status}' of a failed request (B §8), when the failure carries a status. */
export function httpStatusText(failure: unknown): string | undefined {
  const status = failure instanceof Error ? /^(\d{3}):/.exec(failure.message)?.[1] : undefined;
  return status ? `HTTP ${status}` : undefined;
}

/** The `message` of an API error thrown as "status: {json}", for showing the server's words in a toast. */
export function serverMessage(failure: unknown): string | undefined {
  const text = failure instanceof Error ? failure.message : "";
  const json = text.slice(text.indexOf(":") + 1).trim();
  try {
    const message = (JSON.parse(json) as { message?: unknown }).message;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}
