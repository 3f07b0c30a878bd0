/** The operator console on react-admin, lazy-loaded by the web app under /admin. */
export { AdminPanel } from "./AdminPanel";
export type { AdminPanelProps } from "./AdminPanel";
