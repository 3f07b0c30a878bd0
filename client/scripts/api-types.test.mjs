// @vitest-environment node
// The contract between server and web app: the server's description (committed by `make openapi`, checked against
// the Rust code by the API tests) is valid OpenAPI 3.1, and the TypeScript types generated from it are current.
import { readFile } from "node:fs/promises";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { DESCRIPTION, TYPES, apiTypes } from "./api-types.mjs";

const document = JSON.parse(await readFile(DESCRIPTION, "utf8"));

describe("the server's API description", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("gives the committed TypeScript types (run `make openapi` after changing a server type)", async () => {
    expect(await readFile(TYPES, "utf8")).toBe(await apiTypes(document));
  });
});
