import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "@outreach/client/toast-store";
import { Toaster } from "./toaster";

// jsdom has no PointerEvent; without one, fired pointer events lose their coordinates.
if (!("PointerEvent" in window)) {
  Object.defineProperty(window, "PointerEvent", { value: class PointerEvent extends MouseEvent {} });
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("toasts", () => {
  it("shows one at a time, the newest", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: "First" });
      toast({ title: "Campaign created" });
    });
    expect(screen.getAllByTestId("toast")).toHaveLength(1);
    expect(screen.getByText("Campaign created")).toBeTruthy();
    expect(screen.queryByText("First")).toBeNull();
  });

  it("closes after 5 seconds", () => {
    render(<Toaster />);
    act(() => void toast({ title: "Template updated" }));
    act(() => void vi.advanceTimersByTime(4900));
    expect(screen.queryByText("Template updated")).not.toBeNull();
    act(() => void vi.advanceTimersByTime(200));
    expect(screen.queryByText("Template updated")).toBeNull();
  });

  it("closes when swiped right past 50 px, not before", () => {
    render(<Toaster />);
    act(() => void toast({ title: "Swipe me" }));
    const item = screen.getByTestId("toast");
    fireEvent.pointerDown(item, { clientX: 100 });
    fireEvent.pointerMove(item, { clientX: 140 });
    fireEvent.pointerUp(item);
    expect(screen.queryByText("Swipe me")).not.toBeNull();
    fireEvent.pointerDown(item, { clientX: 100 });
    fireEvent.pointerMove(item, { clientX: 151 });
    fireEvent.pointerUp(item);
    expect(screen.queryByText("Swipe me")).toBeNull();
  });

  it("F8 moves focus to the notification area", () => {
    render(<Toaster />);
    fireEvent.keyDown(window, { key: "F8" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Notifications (F8)");
  });
});
