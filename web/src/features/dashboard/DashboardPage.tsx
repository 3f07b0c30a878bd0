/** The dashboard shell (A §2): header, usage meter, tabs chosen by URL, saved tab or default, and the toasts
 * for parameters a Google redirect leaves behind. */
import { useCallback, useEffect, useState } from "react";
import { ButtonLink } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { toast } from "../../components/ui/toast-store";
import { SWITCH_TAB } from "../../lib/events";
import { STORAGE_KEYS, applyLastUserRule } from "../../lib/storage";
import { TABS, initialTab, normalizeTab, type TabId } from "../../lib/tabs";
import { displayName, useAuth } from "../../lib/auth";
import { returnToasts, withoutReturnParams } from "./returnParams";
import { UsageMeter } from "./UsageMeter";
import { EmailSettings } from "../sending/EmailSettings";
// The dashboard shell mounts the feature screens of its tabs.
import { CampaignBuilder } from "../campaigns/CampaignBuilder";
import { TemplatesTab } from "../campaigns/TemplateChooser";
import { AnalyticsTab } from "../analytics/AnalyticsTab";
import { ContactsTab } from "../contacts/ContactsTab";

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
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 p-4">
          <a href="/" className="flex items-center gap-2" aria-label="Home">
            <img src="/logo.svg" alt="" width="32" height="32" className="h-8 w-8" />
            <h1 className="text-xl font-bold">AI Outreach Agent</h1>
          </a>
          <div className="flex items-center gap-4 text-sm">
            <span data-testid="user-name">{displayName(user)}</span>
            {user?.isAdmin ? (
              <a className="text-brand underline" href="/admin">
                Admin
              </a>
            ) : null}
            <ButtonLink variant="outline" href="/auth/logout">
              Sign Out
            </ButtonLink>
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
        <UsageMeter />
        <nav role="tablist" aria-label="Dashboard" className="flex flex-wrap gap-1 border-b border-slate-200">
          {TABS.map((item) => (
            <button
              key={item.id}
              role="tab"
              aria-selected={tab === item.id}
              onClick={() => selectTab(item.id)}
              className={`rounded-t-md px-4 py-2 text-sm ${tab === item.id ? "bg-white font-semibold text-brand shadow-sm" : "text-slate-600 hover:bg-slate-100"}`}
            >
              {item.label}
            </button>
          ))}
        </nav>
        <div role="tabpanel">
          <TabContent tab={tab} />
        </div>
      </div>
    </div>
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
    case "automation":
      return (
        <Card title="Automation">
          <p className="text-slate-600">Coming Soon</p>
        </Card>
      );
  }
}
