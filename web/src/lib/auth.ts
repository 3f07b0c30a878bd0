/** The signed-in user and the sign-in options, from the server. */
import { useQuery } from "@tanstack/react-query";
import { getQueryFn } from "@outreach/client/request";
import type { AuthOptions, User } from "@outreach/client/api/types";

export const USER_QUERY_KEY = ["/api/auth/user"];

/** Browser navigation that starts Google sign-in and sign-up (A §2). */
export const GOOGLE_SIGN_IN_PATH = "/auth/google";

/** GET /api/auth/user: no retry, always stale; missing or failed means not signed in (A §7). */
export function useAuth() {
  const query = useQuery<User | null>({
    queryKey: USER_QUERY_KEY,
    queryFn: getQueryFn<User>({ on401: "returnNull" }),
    retry: false,
    staleTime: 0,
  });
  const user = query.isError ? null : (query.data ?? null);
  return { user, isLoading: query.isLoading, isAuthenticated: user !== null };
}

export function useAuthOptions() {
  return useQuery<AuthOptions | null>({ queryKey: ["/api/auth/options"] });
}

/** The name the header shows: first name, else email, else 'User' (A §2). */
export function displayName(user: Pick<User, "firstName" | "email"> | null): string {
  return user?.firstName?.trim() || user?.email || "User";
}

export type { AuthOptions, User };
