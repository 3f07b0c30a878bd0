/** The router: public pages, protected pages behind sign-in and the account gate, and the not-found page. */
import { lazy, Suspense, type ReactNode } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { QueryClientProvider } from "@tanstack/react-query";
import { Spinner } from "../components/ui/spinner";
import { Toaster } from "../components/ui/toaster";
import { createQueryClient } from "../lib/queryClient";
import { AccountGate } from "../features/auth/AccountGate";
import { LoginPage } from "../features/auth/LoginPage";
import { ProtectedRoute } from "../features/auth/ProtectedRoute";
import { DashboardPage } from "../features/dashboard/DashboardPage";
import { ErrorBoundary } from "../features/errors/ErrorBoundary";
import { NotFoundPage } from "../features/errors/NotFoundPage";
import { HomePage } from "../features/home/HomePage";

// The console stays out of the dashboard's first load.
const AdminPage = lazy(() => import("../features/admin/AdminPage"));

const queryClient = createQueryClient();

function Protected({ children }: { children: ReactNode }) {
  return (
    <ProtectedRoute>
      <AccountGate>{children}</AccountGate>
    </ProtectedRoute>
  );
}

export function App() {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="/home" element={<HomePage />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/dashboard" element={<Protected><DashboardPage /></Protected>} />
            <Route
              path="/admin"
              element={
                <ProtectedRoute>
                  <Suspense fallback={<Spinner label="Loading the admin panel..." />}>
                    <AdminPage />
                  </Suspense>
                </ProtectedRoute>
              }
            />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </BrowserRouter>
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
