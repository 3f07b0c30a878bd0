/** Header and footer of the public pages; a signed-in user (who reaches the root from the app's logo) is offered
 * the dashboard instead of signing in. */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "../../components/ui/button";
import { useAuth } from "../../lib/auth";

export function PublicHeader({ signIn = "/login", links }: { signIn?: string; links?: { href: string; label: string }[] }) {
  const { user } = useAuth();
  const items = links ?? [
    { href: "/about", label: "About" },
    { href: "/pricing", label: "Pricing" },
    { href: "/#features", label: "Features" },
  ];
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 font-bold">
          <img src="/logo.svg" alt="" width="32" height="32" className="h-8 w-8" />
          <span>AI Outreach Agent</span>
        </Link>
        <div className="flex flex-wrap items-center gap-1 text-sm sm:gap-3">
          {items.map((item) => (
            <a key={item.href} href={item.href} className="rounded px-2 py-1 text-slate-700 hover:bg-slate-100">
              {item.label}
            </a>
          ))}
          {user ? (
            <Link to="/dashboard" className={buttonClass("primary")}>
              Dashboard
            </Link>
          ) : (
            <a href={signIn} className={buttonClass("primary")}>
              Sign In
            </a>
          )}
        </div>
      </nav>
    </header>
  );
}

export function PublicFooter() {
  const links = [
    { href: "/about", label: "About" },
    { href: "/pricing", label: "Pricing" },
    { href: "/contact", label: "Contact" },
    { href: "/privacy", label: "Privacy Policy" },
    { href: "/terms", label: "Terms of Service" },
  ];
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-slate-600 sm:flex-row sm:justify-between">
        <span>© {new Date().getFullYear()} AI Outreach Agent</span>
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          {links.map((link) => (
            <a key={link.href} href={link.href} className="hover:underline">
              {link.label}
            </a>
          ))}
        </nav>
      </div>
    </footer>
  );
}

export function PublicPage({ children, header }: { children: ReactNode; header?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      {header ?? <PublicHeader />}
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-10">{children}</main>
      <PublicFooter />
    </div>
  );
}

/** The "last updated" line of the policies: today's date, as the spec asks. */
export function LastUpdated() {
  const today = new Date().toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  return <p className="text-sm text-slate-500">Last updated: {today}</p>;
}
