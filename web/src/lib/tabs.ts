/**
 * Dashboard tabs and the rule that picks the active one (A §2): the URL's `tab`, else the saved
 * `dashboard-active-tab`, else `campaign`. The spec gives two readings of the tab set; ids of the other reading
 * (and the `email` link of the Gmail result page) are accepted as aliases.
 */
import { STORAGE_KEYS } from "./storage";

export const TABS = [
  { id: "email-settings", label: "STEP 1: Email Settings" },
  { id: "campaign", label: "STEP 2: Build Campaign" },
  { id: "your-campaigns", label: "Campaign Analytics" },
  { id: "email-templates", label: "Email Templates" },
  { id: "contact-management", label: "Contacts" },
  { id: "responses", label: "Responses" },
  { id: "inbox", label: "Inbox" },
  { id: "automation", label: "Automation" },
  { id: "test-automation", label: "Test Automation" },
] as const;

export type TabId = (typeof TABS)[number]["id"];

/** The page title of a tab: its label without the 'STEP n:' of the first two. */
export function tabTitle(id: TabId): string {
  const label = TABS.find((item) => item.id === id)?.label ?? "Dashboard";
  return label.replace(/^STEP \d+: /, "");
}

export const DEFAULT_TAB: TabId = "campaign";

const ALIASES: Record<string, TabId> = {
  email: "email-settings",
  search: "campaign",
  campaigns: "campaign",
  send: "campaign",
  analytics: "your-campaigns",
  templates: "email-templates",
  contacts: "contact-management",
  test: "test-automation",
};

export function normalizeTab(value: string | null | undefined): TabId | null {
  if (!value) return null;
  const known = TABS.find((tab) => tab.id === value);
  return known ? known.id : (ALIASES[value] ?? null);
}

export function initialTab(search: string, storage: Storage = localStorage): TabId {
  const fromUrl = normalizeTab(new URLSearchParams(search).get("tab"));
  return fromUrl ?? normalizeTab(storage.getItem(STORAGE_KEYS.activeTab)) ?? DEFAULT_TAB;
}
