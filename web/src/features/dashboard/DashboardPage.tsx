/** The dashboard shell (A §2): header, usage meter, tabs (a select on a phone) chosen by URL, saved tab or default,
 * and the toasts for parameters a Google redirect leaves behind. */
import { useCallback, useEffect, useState } from "react";
import { moveByArrowKeys } from "../../components/ui/roving";
import { SelectField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { SWITCH_TAB } from "@outreach/client/events";
import { STORAGE_KEYS, applyLastUserRule } from "../../lib/storage";
import { TABS, initialTab, normalizeTab, tabTitle, type TabId } from "../../lib/tabs";
import { useAuth } from "../../lib/auth";
import { usePageTitle } from "../../lib/title";
import { returnToasts, withoutReturnParams } from "./returnParams";
import { UsageMeter } from "./UsageMeter";
import { EmailSettings } from "../sending/EmailSettings";
// The dashboard shell mounts the feature screens of its tabs.
import { CampaignBuilder } from "../campaigns/CampaignBuilder";
import { TemplatesTab } from "../campaigns/TemplateChooser";
import { AnalyticsTab } from "../analytics/AnalyticsTab";
import { ContactsTab } from "../contacts/ContactsTab";
import { ResponsesTab } from "../responses/ResponsesTab";
import { InboxTab } from "../inbox/InboxTab";
import { AutomationTab } from "../automations/AutomationTab";
import { TestAutomationScreen } from "../automations/TestAutomationForm";

export function DashboardPage() {
  const { user } = useAuth();
  // A different user on this browser: stored campaign data and the stored tab go before the tab is chosen.
  // (The shell renders only once the user is loaded.)
  const [tab, setTab] = useState<TabId>(() => {
    if (user) applyLastUserRule(user.id);
    return initialTab(window.location.search);
  });

  const selectTab = useCallback((next: TabId) => {
    setTab(next);
    localStorage.setItem(STORAGE_KEYS.activeTab, next);
    const url = new URL(window.location.href);
    url.searchParams.set("tab", next);
    window.history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);

  usePageTitle(tabTitle(tab));

  useEffect(() => {
    const onSwitch = (event: Event) => {
      const next = normalizeTab((event as CustomEvent<string>).detail);
      if (next) selectTab(next);
    };
    window.addEventListener(SWITCH_TAB, onSwitch);
    return () => window.removeEventListener(SWITCH_TAB, onSwitch);
  }, [selectTab]);

  useEffect(() => {
    const toasts = returnToasts(window.location.search);
    if (toasts.length === 0) return;
    toasts.forEach((item) => toast(item));
    window.history.replaceState(null, "", withoutReturnParams(window.location.href));
  }, []);

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
      <UsageMeter />
      {/* On a phone nine tabs fit neither in a row (seven were off screen, issue 83.15) nor wrapped (the content
          started 730 px down, issue 33.5): a select names the current section and lists them all. */}
      <div className="sm:hidden">
        <SelectField
          label="Dashboard section"
          value={tab}
          onChange={(event) => {
            const next = normalizeTab(event.target.value);
            if (next) selectTab(next);
          }}
          options={TABS.map((item) => ({ value: item.id, label: item.label }))}
        />
      </div>
      {/* WAI-ARIA tabs: one tab in the Tab order, arrow keys, Home and End move and select. */}
      <div
        role="tablist"
        aria-label="Dashboard"
        className="hidden flex-wrap gap-1 border-b border-slate-200 sm:flex"
        onKeyDown={(event) => {
          const moved = moveByArrowKeys(event);
          const next = moved ? normalizeTab(moved.dataset.tab) : null;
          if (next) selectTab(next);
        }}
      >
        {TABS.map((item) => (
          <button
            key={item.id}
            id={`tab-${item.id}`}
            data-tab={item.id}
            role="tab"
            aria-selected={tab === item.id}
            aria-controls="dashboard-panel"
            tabIndex={tab === item.id ? 0 : -1}
            onClick={() => selectTab(item.id)}
            className={`whitespace-nowrap rounded-t-md px-4 py-2 text-sm ${tab === item.id ? "bg-white font-semibold text-brand shadow-sm" : "text-slate-600 hover:bg-slate-100"}`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="dashboard-panel" aria-labelledby={`tab-${tab}`}>
        <TabContent tab={tab} />
      </div>
    </main>
  );
}

/** The screen of each tab. */
function TabContent({ tab }: { tab: TabId }) {
  switch (tab) {
    case "email-settings":
      return <EmailSettings />;
    case "campaign":
      return <CampaignBuilder />;
    case "your-campaigns":
      return <AnalyticsTab />;
    case "email-templates":
      return <TemplatesTab />;
    case "contact-management":
      return <ContactsTab />;
    case "responses":
      return <ResponsesTab />;
    case "inbox":
      return <InboxTab />;
    case "automation":
      return <AutomationTab />;
    case "test-automation":
      return <TestAutomationScreen />;
  }
}
