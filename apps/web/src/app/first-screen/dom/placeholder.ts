/**
 * Stands, in the first script's build (ADR 0039), for a component the first screen never calls:
 * one with state or effects, or a library's. `paint-home.tsx` renders each through a substitute
 * keyed by it; calling one means a substitute is missing.
 */
export function placeholder(name: string): () => never {
  return () => {
    throw new Error(`The first screen has no substitute for ${name}`);
  };
}
