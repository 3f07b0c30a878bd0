/** Protected routes: a spinner while the session is checked, then the page or a redirect to /login (B §2.2). */
import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { Spinner } from "../../components/ui/spinner";
import { useAuth } from "../../lib/auth";

export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <Spinner label="Checking authentication..." />;
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return <>{children}</>;
}
