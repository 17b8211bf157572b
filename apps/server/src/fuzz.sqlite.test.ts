import { fuzzEveryRoute } from "../test/fuzz/fuzz-every-route";

// "No 5xx from any input" on SQLite; how the fuzz works and its settings: test/fuzz/fuzz-every-route.ts.
fuzzEveryRoute("sqlite");
