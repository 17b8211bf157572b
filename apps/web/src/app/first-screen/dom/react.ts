import { placeholder } from "@/app/first-screen/dom/placeholder";

/**
 * `react` in the first script's build (ADR 0039): the hooks of the components the first screen
 * renders through substitutes, never called there. Types come from React itself.
 */
export const lazy = (_load: unknown) => placeholder("lazy");
export const Suspense = placeholder("Suspense");
export const useCallback = placeholder("useCallback");
export const useContext = placeholder("useContext");
export const useEffect = placeholder("useEffect");
export const useId = placeholder("useId");
export const useLayoutEffect = placeholder("useLayoutEffect");
export const useMemo = placeholder("useMemo");
export const useRef = placeholder("useRef");
export const useState = placeholder("useState");
export const useSyncExternalStore = placeholder("useSyncExternalStore");

/** A context object that is never read there: `useIntl` (lib/intl.ts) takes the active language while drawing. */
export const createContext = <T>(value: T) => ({ value });
