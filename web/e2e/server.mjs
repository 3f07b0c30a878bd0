// Starts `outreach serve` on a fresh SQLite database and free ports for the browser tests.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const binary = process.env.OUTREACH_BIN ?? resolve(import.meta.dirname, "../../target/debug/outreach");

/** The OpenStreetMap extract kept in the repository (core/data/osm, ODbL), for tests that search the directory. */
export const OSM_EXTRACT = resolve(import.meta.dirname, "../../core/data/osm/Helsinki.osm.pbf");

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs the app with extra OUTREACH_* variables; resolves once /readyz answers. With `osmExtract`, the
 * offline directory is loaded from that file first. */
export async function startOutreach(env, { osmExtract } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "outreach-e2e-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const fullEnv = {
    PATH: process.env.PATH,
    OUTREACH_DATABASE__URL: `sqlite://${dir}/outreach.db`,
    OUTREACH_HTTP__LISTEN: `127.0.0.1:${port}`,
    OUTREACH_METRICS__LISTEN: "",
    // E2E_LOG_LEVEL=info shows what the server did around a failure.
    OUTREACH_LOG__LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    // The tests run at any hour: campaigns send at any time, senders as fast as their servers take messages (a test
    // that checks the window or the pace sets its own).
    OUTREACH_SENDING__DEFAULT_WINDOW: "mon-sun 00:00-24:00",
    OUTREACH_SENDING__PACING: "false",
    ...env,
  };
  if (osmExtract) execFileSync(binary, ["import", "osm", osmExtract], { cwd: dir, env: fullEnv, stdio: "ignore" });
  const child = spawn(binary, ["serve"], { cwd: dir, env: fullEnv, stdio: ["ignore", "inherit", "inherit"] });
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`outreach exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    base,
    /** The SQLite file, for a test that has to move a recorded time into the past (no test can wait days). */
    database: `${dir}/outreach.db`,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((done) => (child.exitCode !== null ? done() : child.once("exit", done)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
