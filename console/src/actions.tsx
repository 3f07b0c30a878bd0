/**
 * An administrator's action on a record (activate, retry, pause...): the web app's request helper and toasts,
 * then the console's lists and records are read again.
 */
import { useRefresh } from "react-admin";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";

export interface AdminAction {
  method?: "POST" | "DELETE";
  path: string;
  body?: unknown;
}

/** Runs an action; the success toast is the server's `message` itself when it has one, else `done` (B §8). */
export function useAdminAction<T extends { message?: string }>(done: string, failed: string) {
  const refresh = useRefresh();
  return useApiMutation<AdminAction, T>({
    mutationFn: ({ method = "POST", path, body = {} }) => requestJson<T>(method, path, body),
    success: (answer) => ({ title: answer.message ?? done }),
    failure: { title: "Error", description: failed },
    onSuccess: () => refresh(),
  });
}

/** The time of a queue job (apalis keeps unix seconds). */
export function fromSeconds(seconds: number | null | undefined): string {
  return seconds ? new Date(seconds * 1000).toLocaleString() : "—";
}
