/**
 * The operator console (issue 22) on react-admin with ra-data-simple-rest over `/api/admin`: the Admin Panel of
 * B §2.15 as its home, then users, invites, the suppression list, queue jobs, campaigns, senders, search logs and the
 * audit log. The web app loads it lazily under /admin, for administrators only; the server checks the role on
 * every call.
 */
// react-router-dom: the console's own copy of the router (see web/vite.config.ts), under the app's /admin route.
import { BrowserRouter, Route, Routes } from "react-router-dom";
import { Admin, AppBar, Layout, Resource, TitlePortal, defaultTheme, type LayoutProps, type RaThemeOptions } from "react-admin";
import { dataProvider } from "./dataProvider";
import { Home, SignedInEmail } from "./Home";
import { CampaignList, CampaignShow } from "./resources/campaigns";
import { AuditList, SearchList, SenderList } from "./resources/activity";
import { InviteCreate, InviteList } from "./resources/invites";
import { JobList, JobShow } from "./resources/jobs";
import { UnsubscribeCreate, UnsubscribeList } from "./resources/unsubscribes";
import { UserList, UserShow } from "./resources/users";

export interface AdminPanelProps {
  /** The signed-in administrator, shown on the home page. */
  email: string;
}

/** The product's blue and its type. */
const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, primary: { main: "#1d4ed8" }, secondary: { main: "#0f172a" } },
  typography: { fontFamily: "inherit" },
};

function ConsoleAppBar() {
  return (
    <AppBar userMenu={false}>
      <TitlePortal />
      <a className="text-sm text-white underline" href="/dashboard">
        Back to dashboard
      </a>
    </AppBar>
  );
}

function ConsoleLayout({ children }: LayoutProps) {
  return <Layout appBar={ConsoleAppBar}>{children}</Layout>;
}

export function AdminPanel({ email }: AdminPanelProps) {
  return (
    <SignedInEmail.Provider value={email}>
      <BrowserRouter>
        <Routes>
          <Route
            path="/admin/*"
            element={
              <Admin basename="/admin" dataProvider={dataProvider} dashboard={Home} layout={ConsoleLayout} theme={theme} title="Outreach admin" disableTelemetry>
                <Resource name="users" list={UserList} show={UserShow} recordRepresentation="email" />
                <Resource name="invites" list={InviteList} create={InviteCreate} />
                <Resource name="unsubscribes" list={UnsubscribeList} create={UnsubscribeCreate} options={{ label: "Suppression list" }} />
                <Resource name="jobs" list={JobList} show={JobShow} />
                <Resource name="campaigns" list={CampaignList} show={CampaignShow} />
                <Resource name="senders" list={SenderList} />
                <Resource name="searches" list={SearchList} options={{ label: "Search logs" }} />
                <Resource name="audit" list={AuditList} options={{ label: "Audit log" }} />
              </Admin>
            }
          />
        </Routes>
      </BrowserRouter>
    </SignedInEmail.Provider>
  );
}
