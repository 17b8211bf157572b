/**
 * The JSX runtime of the first script's build (ADR 0039): elements as plain `{ type, props }`
 * objects, the shape React's have, which `renderToDom` turns into DOM nodes. React is not in the
 * first script; `vite.config.ts` points `react/jsx-runtime` here for that build only.
 */
export const Fragment = Symbol.for("react.fragment");

export function jsx(type: unknown, props: Record<string, unknown>): { type: unknown; props: Record<string, unknown> } {
  return { type, props };
}

export const jsxs = jsx;
