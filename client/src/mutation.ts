/**
 * Every write of the app goes through `useApiMutation`: TanStack Query's `useMutation` with the success toast, the
 * error toast in the server's words (else the screen's fallback, the spec's wording), and the queries to refresh.
 * Its `isPending` is the busy state; a 403 on a gated path has already raised the account-status event in the
 * request helper (A §3), so the gate shows the paywall whichever screen wrote.
 */
import { useMutation, useQueryClient, type Query, type QueryKey } from "@tanstack/react-query";
import { toast, type Toast } from "./toast-store";
import { serverMessage } from "./request";

type ToastText = Pick<Toast, "title" | "description" | "variant" | "duration">;

export interface ApiMutationOptions<TVariables, TData> {
  /** The request; `requestJson` or `apiRequest` from the request helper. */
  mutationFn: (variables: TVariables) => Promise<TData>;
  /** The toast after success, fixed or from the answer; none when absent or null. */
  success?: ToastText | ((data: TData, variables: TVariables) => ToastText | null);
  /** The error toast: its title and the description used when the server's answer carries no message, or a
   * screen's own reading of the failure (the spec gives some errors their own titles). */
  failure?: { title: string; description?: string } | ((failure: Error) => ToastText);
  /** Queries refreshed after success: by key, or every query a test picks. */
  invalidates?: QueryKey[] | ((query: Query) => boolean);
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (failure: Error, variables: TVariables) => void;
}

export function useApiMutation<TVariables = void, TData = unknown>(options: ApiMutationOptions<TVariables, TData>) {
  const queryClient = useQueryClient();
  return useMutation<TData, Error, TVariables>({
    mutationFn: options.mutationFn,
    onSuccess: (data, variables) => {
      const { invalidates = [] } = options;
      if (typeof invalidates === "function") void queryClient.invalidateQueries({ predicate: invalidates });
      else for (const queryKey of invalidates) void queryClient.invalidateQueries({ queryKey });
      const text = typeof options.success === "function" ? options.success(data, variables) : options.success;
      if (text) toast(text);
      options.onSuccess?.(data, variables);
    },
    onError: (failure, variables) => {
      const { failure: text } = options;
      if (typeof text === "function") toast({ variant: "destructive", ...text(failure) });
      else if (text) toast({ variant: "destructive", title: text.title, description: serverMessage(failure) ?? text.description });
      options.onError?.(failure, variables);
    },
  });
}
