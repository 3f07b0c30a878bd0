/** The signed-in app's header on every protected page: the product, links to every screen outside the dashboard's
 * tabs (follow-ups, search log, buying emails, a custom address), the administrator's console, the account and
 * Sign Out. */
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { displayName, useAuth } from "../lib/auth";
import { ButtonLink } from "./ui/button";

const LINKS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/followup-cronjob", label: "Follow-ups" },
  { to: "/search-log", label: "Search Log" },
  { to: "/purchase-emails", label: "Buy Emails" },
  { to: "/custom-email", label: "Custom Email" },
];

export function AppShell({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const links = user?.isAdmin ? [...LINKS, { to: "/admin", label: "Admin" }] : LINKS;
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 p-4">
          {/* The logo leads to the root (A §2, B §2.3), whose header leads back to the dashboard. */}
          <Link to="/" className="flex items-center gap-2">
            <img src="/logo.svg" alt="" width="32" height="32" className="h-8 w-8" />
            <span className="text-xl font-bold">AI Outreach Agent</span>
          </Link>
          <nav aria-label="App" className="-mx-4 flex w-[calc(100%+2rem)] items-center gap-1 overflow-x-auto px-4 text-sm sm:mx-0 sm:w-auto sm:flex-wrap sm:px-0">
            {links.map((link) => (
              <NavLink
                key={link.to}
                to={link.to}
                end
                className={({ isActive }) => `shrink-0 whitespace-nowrap rounded px-2 py-1 ${isActive ? "bg-slate-100 font-semibold text-brand" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {link.label}
              </NavLink>
            ))}
          </nav>
          <div className="flex items-center gap-3 text-sm">
            <span data-testid="user-name">{displayName(user)}</span>
            <ButtonLink variant="outline" href="/auth/logout">
              Sign Out
            </ButtonLink>
          </div>
        </div>
      </header>
      {children}
    </div>
  );
}
