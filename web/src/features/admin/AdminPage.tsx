/** /admin: the operator console for administrators; everyone else is told they lack access. */
import { AdminPanel } from "@outreach/console";
import { Card } from "../../components/ui/card";
import { useAuth } from "../../lib/auth";
import { usePageTitle } from "../../lib/title";

export function AdminPage() {
  usePageTitle("Admin");
  const { user } = useAuth();
  if (!user?.isAdmin) {
    return (
      <main className="flex min-h-screen items-center justify-center p-6">
        <Card title="Access denied" className="max-w-md">
          <p className="text-slate-600">The admin panel is only available to administrators of this instance.</p>
        </Card>
      </main>
    );
  }
  return <AdminPanel email={user.email} />;
}
