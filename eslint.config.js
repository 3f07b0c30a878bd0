import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { featureBoundaries } from "./scripts/eslint-feature-boundaries.js";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "target/**"] },
  {
    files: ["client/**/*.{ts,tsx}", "web/**/*.{ts,tsx}", "console/**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks, outreach: { rules: { "feature-boundaries": featureBoundaries } } },
    rules: { ...reactHooks.configs.recommended.rules, "outreach/feature-boundaries": "error" },
  },
  {
    // Each package reaches another only through its name (web → console → client), never into its files.
    files: ["client/**/*.{ts,tsx}", "console/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/web/src/**", "**/console/src/**"], message: "Import @outreach/client, not another package's files." }] },
      ],
    },
  },
  {
    files: ["web/e2e/**/*.mjs"],
    extends: [js.configs.recommended],
    // Node, plus the browser globals of the callbacks that run inside the page (page.evaluate, waitForFunction).
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
