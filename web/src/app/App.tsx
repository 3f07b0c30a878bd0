/** The router: public pages, protected pages behind sign-in and the account gate, and the not-found page.
 * The landing and sign-in pages load with the app; every other page is its own chunk. */
import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { QueryClientProvider } from "@tanstack/react-query";
import { AppShell } from "../components/app-shell";
import { Spinner } from "../components/ui/spinner";
import { Toaster } from "../components/ui/toaster";
import { createQueryClient } from "@outreach/client/queryClient";
import { AccountGate } from "../features/auth/AccountGate";
import { LoginPage } from "../features/auth/LoginPage";
import { ProtectedRoute } from "../features/auth/ProtectedRoute";
import { ErrorBoundary } from "../features/errors/ErrorBoundary";
import { NotFoundPage } from "../features/errors/NotFoundPage";
import { LandingPage } from "../features/public/LandingPage";

/** A lazily loaded named export. */
function page<M>(load: () => Promise<M>, name: keyof M): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const DashboardPage = page(() => import("../features/dashboard/DashboardPage"), "DashboardPage");
const AdminPage = page(() => import("../features/admin/AdminPage"), "AdminPage");
const AboutPage = page(() => import("../features/public/AboutPage"), "AboutPage");
const PricingPage = page(() => import("../features/public/PricingPage"), "PricingPage");
const PurchaseEmailsPage = page(() => import("../features/public/PurchaseEmailsPage"), "PurchaseEmailsPage");
const CustomEmailPage = page(() => import("../features/public/CustomEmailPage"), "CustomEmailPage");
const PrivacyPage = page(() => import("../features/public/PrivacyPage"), "PrivacyPage");
const TermsPage = page(() => import("../features/public/TermsPage"), "TermsPage");
const ContactPage = page(() => import("../features/public/ContactPage"), "ContactPage");
const DownloadLogoPage = page(() => import("../features/public/DownloadLogoPage"), "DownloadLogoPage");
const UnsubscribePage = page(() => import("../features/public/UnsubscribePage"), "UnsubscribePage");
const GmailOAuthResultPage = page(() => import("../features/public/GmailOAuthResultPage"), "GmailOAuthResultPage");
const CampaignAnalyticsPage = page(() => import("../features/analytics/CampaignAnalyticsPage"), "CampaignAnalyticsPage");
const CampaignDetailsPage = page(() => import("../features/analytics/CampaignDetailsPage"), "CampaignDetailsPage");
const FollowUpManagerPage = page(() => import("../features/followups/FollowUpManagerPage"), "FollowUpManagerPage");
const FollowUpAnalyticsPage = page(() => import("../features/followups/FollowUpAnalyticsPage"), "FollowUpAnalyticsPage");
const SearchLogPage = page(() => import("../features/searchlog/SearchLogPage"), "SearchLogPage");
const LogoutPage = page(() => import("../features/auth/LogoutPage"), "LogoutPage");
const AccessDeniedPage = page(() => import("../features/public/AccessDeniedPage"), "AccessDeniedPage");

const queryClient = createQueryClient();

/** Signed-in users with an active account, under the app's header. */
function Protected({ children }: { children: ReactNode }) {
  return (
    <ProtectedRoute>
      <AccountGate>
        <AppShell>{children}</AppShell>
      </AccountGate>
    </ProtectedRoute>
  );
}

export function App() {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Suspense fallback={<Spinner label="Loading..." />}>
            <Routes>
              <Route path="/" element={<LandingPage />} />
              <Route path="/home" element={<LandingPage />} />
              <Route path="/login" element={<LoginPage />} />
              <Route path="/about" element={<AboutPage />} />
              <Route path="/pricing" element={<PricingPage />} />
              <Route path="/auth/choose-plan" element={<PricingPage />} />
              <Route path="/contact" element={<ContactPage />} />
              <Route path="/privacy" element={<PrivacyPage />} />
              <Route path="/terms" element={<TermsPage />} />
              <Route path="/download-logo" element={<DownloadLogoPage />} />
              <Route path="/unsubscribe" element={<UnsubscribePage />} />
              <Route path="/gmail-oauth-result" element={<GmailOAuthResultPage />} />
              <Route path="/access-denied" element={<AccessDeniedPage />} />
              <Route path="/auth/logout" element={<LogoutPage />} />
              <Route path="/dashboard" element={<Protected><DashboardPage /></Protected>} />
              <Route path="/purchase-emails" element={<Protected><PurchaseEmailsPage /></Protected>} />
              <Route path="/custom-email" element={<Protected><CustomEmailPage /></Protected>} />
              <Route path="/campaign-analytics/:id" element={<Protected><CampaignAnalyticsPage /></Protected>} />
              <Route path="/campaign-details/:id" element={<Protected><CampaignDetailsPage /></Protected>} />
              <Route path="/search-log" element={<Protected><SearchLogPage /></Protected>} />
              <Route path="/followup-cronjob" element={<Protected><FollowUpManagerPage /></Protected>} />
              <Route path="/followup-cronjob-analytics" element={<Protected><FollowUpAnalyticsPage /></Protected>} />
              <Route path="/admin/*" element={<ProtectedRoute><AdminPage /></ProtectedRoute>} />
              <Route path="*" element={<NotFoundPage />} />
            </Routes>
          </Suspense>
        </BrowserRouter>
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
