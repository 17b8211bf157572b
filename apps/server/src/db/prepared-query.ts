import type { Compilable, CompiledQuery, Kysely } from "kysely";
import { prepareOnServer } from "./database";
import type { Database } from "./schema";

/** Stands for the n-th argument while the query is built once. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A query that Kysely builds and compiles once, then runs with each call's arguments in place of
 * the placeholders: for the statements every request runs (the member check, the list's
 * generation), where building and compiling cost more than running. `build` must declare its
 * arguments plainly and use each one as a single value (not a list for `in`, not in a branch);
 * values it writes itself stay as compiled. On PostgreSQL it runs as a named statement, so the
 * server does not parse and plan it again either.
 */
export function preparedQuery<Args extends unknown[], Row>(db: Pick<Kysely<Database>, "executeQuery">, build: (...args: Args) => Compilable<Row>): (...args: Args) => Promise<Row[]> {
  // The arguments `build` declares (no defaults, no rest parameter).
  const arity = build.length;
  let compiled: CompiledQuery<Row> | undefined;
  let slots: (number | undefined)[] = [];
  return async (...args) => {
    if (!compiled) {
      const placeholders = Array.from({ length: arity }, (_, index) => new Placeholder(index)) as unknown as Args;
      compiled = build(...placeholders).compile();
      slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value.index : undefined));
      if (new Set(slots.filter((slot) => slot !== undefined)).size !== arity) throw new Error("preparedQuery: every argument must appear in the query as a value");
      prepareOnServer(compiled.sql);
    }
    const parameters = compiled.parameters.map((value, position) => {
      const slot = slots[position];
      return slot === undefined ? value : args[slot];
    });
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
