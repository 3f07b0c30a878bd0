import { defineConfig } from "vitest/config";
import type { Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

/**
 * The operator console (react-admin, a lazy chunk under /admin) runs on its own copy of react-router, reached through
 * react-router-dom, which only react-admin imports. Sharing the app's copy put the router code react-admin uses
 * into the entry chunk every page loads (+18.8 kB gzip, measured); the console runs its own router instead.
 */
function consoleRouter(): Plugin {
  return {
    name: "console-router",
    enforce: "pre",
    async resolveId(source, importer) {
      if (!importer?.includes("/node_modules/react-router-dom/") || !source.startsWith("react-router")) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved && { ...resolved, id: resolved.id.replace("/dist/development/", "/dist/production/") };
    },
  };
}

export default defineConfig({
  plugins: [consoleRouter(), react(), tailwindcss()],
  server: {
    // `npm run dev -w web` proxies the API to a running `outreach serve`.
    proxy: { "/api": "http://127.0.0.1:8080", "/auth": "http://127.0.0.1:8080" },
  },
  build: { outDir: "dist", emptyOutDir: true },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.mjs"],
  },
});
