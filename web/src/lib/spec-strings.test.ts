// @vitest-environment node
/** Issue 33.8: every quoted string of the specs that the app can show is in its code, verbatim; the few that do
 * not apply are listed in the README with why. */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import strings from "./spec-strings.json";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FOLDERS = ["web/src", "console/src", "api/src", "core/src", "src", "worker/src", "scheduler/src"];

/** The app's own code: no tests, no generated API description. */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    const code = /\.(ts|tsx|rs|sql)$/.test(name) && !/\.test\.|schema\.d\.ts$/.test(name);
    return code ? [path] : [];
  });
}

const code = FOLDERS.flatMap((folder) => sources(join(ROOT, folder)))
  .map((path) => readFileSync(path, "utf8"))
  .join("\n");

describe("the specs' quoted strings", () => {
  it.each(strings.shown.map((entry) => [`${entry.spec}: ${entry.text}`, entry.fragments] as const))("%s is in the code", (_, fragments) => {
    for (const fragment of fragments) expect(code.includes(fragment), fragment).toBe(true);
  });

  it("lists those that do not apply in the README, with why", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const entry of strings.notApplicable) expect(readme.includes(`'${entry.text}'`), entry.text).toBe(true);
  });
});
