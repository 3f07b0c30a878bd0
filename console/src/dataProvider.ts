/**
 * The console's data: ra-data-simple-rest over `/api/admin` (sort, range and filter in the query, the total from
 * `Content-Range`), with the session cookie; the server checks the administrator role on every call. Actions that
 * are not create/read go through `useAdminAction`.
 */
import simpleRestProvider from "ra-data-simple-rest";
import { fetchUtils } from "react-admin";
import { apiUrl } from "@outreach/client/request";

export const dataProvider = simpleRestProvider(apiUrl("/api/admin"), (url, options = {}) =>
  fetchUtils.fetchJson(url, { ...options, credentials: "same-origin" }),
);
