/** What the server says about this instance: operator, addresses, sending domain, invite-only mode and senders. */
import { useQuery } from "@tanstack/react-query";
import type { Instance } from "@outreach/client/api/types";

export function useInstance() {
  return useQuery<Instance | null>({ queryKey: ["/api/instance"] });
}

/** A `mailto:` link with its subject and body filled in. */
export function mailto(to: string, subject: string, body?: string): string {
  const query = [`subject=${encodeURIComponent(subject)}`];
  if (body) query.push(`body=${encodeURIComponent(body)}`);
  return `mailto:${to}?${query.join("&")}`;
}

export type { Instance };
