import { describe } from "vitest";
import { fuzzEveryRoute } from "../test/fuzz/fuzz-every-route";
import { availableEngines } from "../test/test-database";

// "No 5xx from any input" on PostgreSQL, when TEST_DATABASE_URL names a server (a file of its own, so
// it runs beside the SQLite one); how the fuzz works and its settings: test/fuzz/fuzz-every-route.ts.
if (availableEngines.includes("postgres")) fuzzEveryRoute("postgres");
else describe.skip("fuzzing every route on postgres (TEST_DATABASE_URL is not set)", () => {});
