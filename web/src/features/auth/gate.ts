/**
 * The account gate's states (A §4): checking → active when a user with access is loaded; inactive when loading
 * ends without one, when the user's account has no access, or when an account-status-error event with status
 * 403 arrives. Nothing leaves inactive except signing out.
 */
import { DEFAULT_INACTIVE_MESSAGE } from "@outreach/client/request";

export type GateState =
  | { kind: "checking" }
  | { kind: "active" }
  | { kind: "inactive"; message: string };

export type GateInput =
  | { type: "loaded"; hasUser: boolean; hasAccess: boolean }
  | { type: "statusError"; status: number; message?: string };

export function nextGateState(state: GateState, input: GateInput): GateState {
  if (state.kind === "inactive") return state;
  if (input.type === "statusError") {
    return input.status === 403 ? { kind: "inactive", message: input.message || DEFAULT_INACTIVE_MESSAGE } : state;
  }
  if (!input.hasUser || !input.hasAccess) return { kind: "inactive", message: DEFAULT_INACTIVE_MESSAGE };
  return { kind: "active" };
}
