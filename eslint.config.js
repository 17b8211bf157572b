import fs from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import globals from "globals";
import formatjs from "eslint-plugin-formatjs";
import reactHooks from "eslint-plugin-react-hooks";
import reactRefresh from "eslint-plugin-react-refresh";
import tseslint from "typescript-eslint";

const server = "apps/server/src";
const web = "apps/web/src";
const folders = (dir) =>
  fs
    .readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const serverModules = folders(`${server}/modules`);
const webFeatures = folders(`${web}/features`);
/**
 * A Tailwind utility that names a physical side (ml-, pr-, left-, text-right, border-l, rounded-r…),
 * with or without variants, unless it is an explicit `ltr:`/`rtl:` one: the layout mirrors in a
 * right-to-left language only through the logical ones (ms-, pe-, start-, text-end, border-s…).
 */
const physicalUtility =
  "(^|\\s)(?!\\S*(rtl|ltr):)([^\\s:]+:)*(-?(m[lr]|p[lr]|left|right|scroll-[mp][lr]|translate-x|slide-(in-from|out-to)-(left|right))-\\S+|(border-[lr]|rounded-([lr]|[tb][lr]))(-\\S+)?|(space|divide)-x-reverse|origin-((top|bottom)-)?(left|right)|(text|float|clear)-(left|right))(?=\\s|$)";
const physicalUtilityMessage =
  "Use the logical utility (ms-/me-, ps-/pe-, start-/end-, text-start/end, border-s/e, rounded-s/e), or an explicit rtl:/ltr: one: the layout mirrors in Arabic (ADR 0052).";
const tests = ["**/*.test.ts", "**/*.test.tsx", "**/test-helpers.ts", "apps/server/test/**", `${web}/testing/**`];

/**
 * The boundaries docs/ARCHITECTURE.md promises, as import zones (`target` may not import `from`).
 * Tests may reach anywhere: they are listed in `tests` and left out of these rules.
 */
const serverZones = [
  {
    // By folder or role, not only by name: a routes file, anything in a routes/ folder, and the
    // cross-cutting plugins answer requests; they reach the database through a service.
    target: [`${server}/**/*.routes.ts`, `${server}/**/routes/**`, `${server}/plugins/**`],
    from: [`${server}/**/*.repository.ts`, `${server}/**/repositories/**`],
    message: "Routes call services; only services use repositories.",
  },
  {
    target: [`${server}/**/*.repository.ts`, `${server}/**/repositories/**`],
    from: [
      `${server}/**/*.service.ts`,
      `${server}/**/*.routes.ts`,
      `${server}/**/routes/**`,
      `${server}/**/*.module.ts`,
      `${server}/plugins/**`,
    ],
    message: "Repositories hold SQL only: they never import services, routes, composition or plugins.",
  },
  ...[`${server}/lib`, `${server}/db`, `${server}/config.ts`, `${server}/errors.ts`].map((target) => ({
    target,
    from: [`${server}/modules`, `${server}/plugins`],
    message: "lib/, db/, config.ts and errors.ts are the ground floor: they never import modules or plugins.",
  })),
  {
    target: `${server}/plugins`,
    from: `${server}/modules`,
    message: "plugins/ is cross-cutting Fastify setup: it never imports modules (the member door is a module).",
  },
  {
    target: `${server}/modules/auth`,
    from: serverModules.filter((module) => !["auth", "instance"].includes(module)).map((module) => `${server}/modules/${module}`),
    message:
      "Auth sits below the product: it declares what it needs (core/invitation-ledger.ts, core/auth-mailer.ts, core/audit-log.ts) and app.ts fills it in; it never imports product modules, the mail module or the audit module.",
  },
  // A module is used from outside through its index.ts, the part it exports on purpose.
  ...serverModules.map((module) => ({
    target: `${server}/!(modules)/**`,
    from: `${server}/modules/${module}`,
    except: ["./index.ts"],
    message: `Import the ${module} module through its index.ts.`,
  })),
  ...serverModules.map((module) => ({
    target: `${server}/*.ts`,
    from: `${server}/modules/${module}`,
    except: ["./index.ts"],
    message: `Import the ${module} module through its index.ts.`,
  })),
  ...serverModules.flatMap((module) =>
    serverModules
      .filter((other) => other !== module)
      .map((other) => ({
        target: `${server}/modules/${module}`,
        from: `${server}/modules/${other}`,
        except: ["./index.ts"],
        message: `A module imports another (${other}) only through its index.ts.`,
      })),
  ),
];

const webZones = [
  ...webFeatures.map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message:
      "A feature never imports another feature; compose them in app/ or move the shared part to components/, hooks/ or lib/.",
  })),
  {
    target: [`${web}/components`, `${web}/hooks`, `${web}/lib`, `${web}/config`],
    from: `${web}/features`,
    message: "Shared code never imports a feature.",
  },
  { target: `${web}/features`, from: `${web}/app`, message: "Features never import app/: the app composes features." },
];

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "data/**", "test-results/**", "playwright-report/**", "bench/.data/**"],
  },
  js.configs.recommended,
  // The rules that need types (floating and misused promises, unsafe any, exhaustive switches: typescript-eslint's
  // recommendedTypeChecked set) run in oxlint on TypeScript 7's checker, `.oxlintrc.json`, the second part of
  // `npm run lint` (ADR 0047). ESLint keeps the rules only it has: React's hooks and compiler rules, the
  // import zones below, and the untyped recommended sets.
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: ["apps/*/tsconfig.json", "packages/*/tsconfig.json", "tsconfig.json"],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Import circles are refused by dependency-cruiser (.dependency-cruiser.mjs, the second half of
      // `npm run lint`), which follows re-exports through index.ts; import-x/no-cycle did not.
      "import-x/no-duplicates": "error",
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks, "react-refresh": reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "react-refresh/only-export-components": ["warn", { allowConstantExport: true }],
    },
  },
  {
    // The contract is shared by server and browser: it may import only zod.
    files: ["packages/contract/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!zod$|\\.{1,2}/)", message: "The contract imports only zod." }] },
      ],
    },
  },
  {
    files: [`${server}/**/*.ts`],
    ignores: tests,
    rules: { "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: serverZones }] },
  },
  {
    files: [`${web}/**/*.{ts,tsx}`],
    ignores: tests,
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: webZones }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "BinaryExpression[operator=/^[!=]==?$/][left.property.name='code'][right.type='Literal']",
          message: "Compare error codes with the contract's ErrorCode, never a string literal.",
        },
        { selector: `Literal[value=/${physicalUtility}/]`, message: physicalUtilityMessage },
        { selector: `TemplateElement[value.raw=/${physicalUtility}/]`, message: physicalUtilityMessage },
      ],
    },
  },
  {
    // Every text the web app shows comes from the message catalogue (ADR 0048): no literal text
    // in JSX, nor in the attributes a person reads or hears (aria-label, title, placeholder, alt…).
    files: [`${web}/**/*.tsx`],
    ignores: tests,
    plugins: { formatjs },
    rules: {
      "formatjs/no-literal-string-in-jsx": [
        "error",
        { props: { include: [["*", "{label,description,placeholder,title,alt}"]] } },
      ],
    },
  },
);
