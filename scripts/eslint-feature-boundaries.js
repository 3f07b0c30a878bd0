/**
 * ESLint rule: a feature folder (`web/src/features/<name>/`) imports only itself and the shared layers (`lib/`,
 * `components/`, `testing/`), never another feature; the shared layers import no feature at all. The dashboard shell,
 * which composes the features into tabs, and the app's router are the exceptions (bulletproof-react's unidirectional
 * architecture). Relative imports are resolved against the importing file, so `../analytics/api` is caught.
 */
import path from "node:path";

/** Folders whose files may import any feature. */
const COMPOSERS = [/\/web\/src\/app\//, /\/web\/src\/features\/dashboard\//];
const FEATURE = /\/web\/src\/features\/([^/]+)\//;
const SHARED = /\/web\/src\/(lib|components|testing)\//;

export const featureBoundaries = {
  meta: {
    type: "problem",
    docs: { description: "forbid imports from one feature folder into another, or from shared code into a feature" },
    messages: {
      crossFeature: "The {{from}} feature imports from the {{to}} feature; move what both use to lib/ or components/.",
      sharedToFeature: "Shared code imports from the {{to}} feature; shared code must not depend on a feature.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename.split(path.sep).join("/");
    if (COMPOSERS.some((composer) => composer.test(file))) return {};
    const own = FEATURE.exec(file)?.[1];
    const shared = SHARED.test(file);
    if (!own && !shared) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const target = `${path.posix.resolve(path.posix.dirname(file), source)}/`;
      const to = FEATURE.exec(target)?.[1];
      if (!to || to === own) return;
      if (own) context.report({ node, messageId: "crossFeature", data: { from: own, to } });
      else context.report({ node, messageId: "sharedToFeature", data: { to } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
