/** TanStack Query defaults of A §7: never stale, no retries, no refetch on focus, no polling unless a screen says. */
import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./request";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "returnNull" }),
        staleTime: Infinity,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}
