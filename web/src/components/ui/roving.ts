/** Arrow-key movement between the buttons of a tab list or stepper (WAI-ARIA: Left/Right, Home/End), skipping
 * disabled ones. Returns the button moved to, so a tab list can select it too. */
import type { KeyboardEvent } from "react";

export function moveByArrowKeys(event: KeyboardEvent<HTMLElement>): HTMLButtonElement | null {
  const keys = ["ArrowLeft", "ArrowRight", "Home", "End"];
  if (!keys.includes(event.key)) return null;
  const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>("button:not([disabled])"));
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (buttons.length === 0 || at < 0) return null;
  event.preventDefault();
  const next =
    event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : (at + (event.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length;
  buttons[next].focus();
  return buttons[next];
}
