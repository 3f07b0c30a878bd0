/**
 * Toast state (A §3 Notification, §4 Toast, §9 Shell): one toast at a time; a dismissed toast stays in the list
 * closed for the spec's removal delay.
 */
import { useSyncExternalStore } from "react";

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = "default" | "destructive" | "warning";

export interface Toast {
  id: string;
  open: boolean;
  title?: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}

let toasts: Toast[] = [];
let counter = 0;
const listeners = new Set<() => void>();

function publish(next: Toast[]) {
  toasts = next;
  listeners.forEach((listener) => listener());
}

export function toast(input: Omit<Toast, "id" | "open">): string {
  const id = String(++counter);
  publish([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return id;
}

export function dismissToast(id: string): void {
  publish(toasts.map((item) => (item.id === id ? { ...item, open: false } : item)));
  setTimeout(() => publish(toasts.filter((item) => item.id !== id)), TOAST_REMOVE_DELAY_MS);
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
}
