/** `/auth/logout` (A §2): the Sign Out links lead here; the page signs out with a POST (a GET cannot end a session,
 * so another site's link or image cannot sign anyone out) and returns to the landing page. */
import { useEffect, useState } from "react";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { apiRequest } from "@outreach/client/request";
import { usePageTitle } from "../../lib/title";

export function LogoutPage() {
  usePageTitle("Signing Out");
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    apiRequest("POST", "/auth/logout")
      .then(() => window.location.replace("/"))
      .catch(() => setFailed(true));
  }, []);
  if (!failed) return <Spinner label="Signing out..." />;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6 text-center">
      <p role="alert">Signing out failed. Please try again.</p>
      <Button onClick={() => window.location.reload()}>Try Again</Button>
    </main>
  );
}
