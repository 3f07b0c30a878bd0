import { describe, expect, it } from "vitest";
import { launchError } from "./LaunchStep";

describe("launch rules", () => {
  it("launch needs a template, recipients and a campaign, in that order (A §5 Launch)", () => {
    expect(launchError(null, [], null)).toBe("Template Required");
    expect(launchError(1, [], null)).toBe("No Recipients");
    expect(launchError(1, [2], null)).toBe("Campaign Required");
    expect(launchError(1, [2], 3)).toBeNull();
  });

});
