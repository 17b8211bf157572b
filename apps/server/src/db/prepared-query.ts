import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import { prepareOnServer } from "./database";
import type { Database } from "./schema";

/** Stands for the n-th argument while the query is built once. */
class Placeholder {
  constructor(readonly index: number) {}
}

type Executor = Pick<Kysely<Database>, "executeQuery">;

/**
 * A query that Kysely builds and compiles once, then runs with each call's arguments in place of
 * the placeholders, on the executor given (the database or a transaction): for the statements
 * that run with every request or every token refresh, where building and compiling cost more
 * than running. `build` must declare its arguments plainly (no defaults, no rest parameter) and
 * use each one as a single value (not a list for `in`, not in a branch); values it writes itself
 * stay as compiled. On PostgreSQL it runs as a named statement, so the server does not parse and
 * plan it again either.
 */
export function preparedQuery<Args extends unknown[], Row>(
  build: (...args: Args) => Compilable<Row>,
): (executor: Executor, ...args: Args) => Promise<QueryResult<Row>> {
  const arity = build.length;
  let compiled: CompiledQuery<Row> | undefined;
  let slots: (number | undefined)[] = [];
  return async (executor, ...args) => {
    if (!compiled) {
      const placeholders = Array.from({ length: arity }, (_, index) => new Placeholder(index)) as unknown as Args;
      compiled = build(...placeholders).compile();
      slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value.index : undefined));
      if (new Set(slots.filter((slot) => slot !== undefined)).size !== arity)
        throw new Error("preparedQuery: every argument must appear in the query as a value");
      prepareOnServer(compiled.sql);
    }
    const parameters = compiled.parameters.map((value, position) => {
      const slot = slots[position];
      return slot === undefined ? value : args[slot];
    });
    return executor.executeQuery<Row>({ ...compiled, parameters });
  };
}
