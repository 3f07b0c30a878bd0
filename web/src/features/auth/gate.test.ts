import { describe, expect, it } from "vitest";
import { nextGateState } from "./gate";

describe("account gate", () => {
  const checking = { kind: "checking" } as const;
  it("becomes active with a user who has access, inactive otherwise", () => {
    expect(nextGateState(checking, { type: "loaded", hasUser: true, hasAccess: true })).toEqual({ kind: "active" });
    expect(nextGateState(checking, { type: "loaded", hasUser: false, hasAccess: false })).toEqual({ kind: "inactive", message: "Account inactive" });
    expect(nextGateState(checking, { type: "loaded", hasUser: true, hasAccess: false }).kind).toBe("inactive");
  });
  it("goes inactive on a 403 event with its message, and nothing leaves inactive", () => {
    const inactive = nextGateState({ kind: "active" }, { type: "statusError", status: 403, message: "Subscription expired" });
    expect(inactive).toEqual({ kind: "inactive", message: "Subscription expired" });
    expect(nextGateState({ kind: "active" }, { type: "statusError", status: 500 })).toEqual({ kind: "active" });
    expect(nextGateState(inactive, { type: "loaded", hasUser: true, hasAccess: true })).toBe(inactive);
    expect(nextGateState({ kind: "active" }, { type: "statusError", status: 403 })).toEqual({ kind: "inactive", message: "Account inactive" });
  });
});
