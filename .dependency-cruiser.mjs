/**
 * Import circles, type-only ones included, across every workspace (npm run lint). ESLint's import-x/no-cycle
 * does not follow a circle through an index.ts that re-exports; dependency-cruiser resolves every import and
 * re-export to the file it reaches, so a circle is seen whichever way it runs.
 */
/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import circles anywhere, type-only imports and re-exports included: a circle is a boundary that leaks.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|coverage|test-results|playwright-report)/" },
    // Type-only imports count: `import type` and `export type … from` are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".cjs", ".jsx", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
