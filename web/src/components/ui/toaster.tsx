/**
 * The toast area: top of the screen, bottom-right from medium width (max 420 px); closes after 5 s, on its close
 * button, or when swiped right 50 px; F8 moves focus to it.
 */
import { useEffect, useRef, useState } from "react";
import { dismissToast, TOAST_DURATION_MS, useToasts, type Toast } from "@outreach/client/toast-store";

export const SWIPE_THRESHOLD_PX = 50;

const VARIANT_CLASSES = {
  default: "border-slate-200 bg-white text-slate-900",
  destructive: "border-red-300 bg-red-600 text-white",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
};

export function Toaster() {
  const toasts = useToasts();
  const region = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") region.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <ol
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="fixed top-0 z-50 flex max-h-screen w-full flex-col-reverse p-4 outline-none md:top-auto md:right-0 md:bottom-0 md:max-w-[420px] md:flex-col"
    >
      {toasts.filter((item) => item.open).map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </ol>
  );
}

function ToastItem({ item }: { item: Toast }) {
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);
  // The distance lives in a ref too: pointerup can arrive before React renders the last move.
  const distance = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => dismissToast(item.id), item.duration ?? TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [item.id, item.duration]);

  const move = (clientX: number) => {
    if (start.current === null) return;
    distance.current = Math.max(0, clientX - start.current);
    setOffset(distance.current);
  };

  const end = () => {
    if (distance.current >= SWIPE_THRESHOLD_PX) dismissToast(item.id);
    else setOffset(0);
    start.current = null;
    distance.current = 0;
  };

  return (
    <li
      role="status"
      aria-live="polite"
      data-testid="toast"
      style={{ transform: `translateX(${offset}px)`, touchAction: "pan-y" }}
      onPointerDown={(event) => (start.current = event.clientX)}
      onPointerMove={(event) => move(event.clientX)}
      onPointerUp={end}
      onPointerCancel={end}
      className={`mb-2 flex w-full items-start justify-between gap-4 rounded-md border p-4 shadow-lg ${VARIANT_CLASSES[item.variant ?? "default"]}`}
    >
      <div>
        {item.title ? <div className="text-sm font-semibold" data-testid="toast-title">{item.title}</div> : null}
        {item.description ? <div className="text-sm opacity-90">{item.description}</div> : null}
      </div>
      <button aria-label="Close" className="text-sm opacity-70 hover:opacity-100" onClick={() => dismissToast(item.id)}>
        ✕
      </button>
    </li>
  );
}
