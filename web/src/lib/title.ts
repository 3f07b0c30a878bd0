/** Each screen names itself in the browser's title bar and history: "<screen> · AI Outreach Agent". */
import { useEffect } from "react";

export const PRODUCT = "AI Outreach Agent";

export function pageTitle(screen: string): string {
  return screen ? `${screen} · ${PRODUCT}` : PRODUCT;
}

export function usePageTitle(screen: string): void {
  useEffect(() => {
    document.title = pageTitle(screen);
  }, [screen]);
}
