import type { FastifyInstance } from "fastify";
import type { JsonSchema, OpenApiParameter } from "./schema";

type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** One route and method, with parameters in OpenAPI form: `/api/v1/memories/{id}`, `/storage/…/{*}`. */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  /** From the OpenAPI document, when the route is in it. */
  parameters?: OpenApiParameter[];
  body?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const methods = new Set<string>(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Swagger UI's static files and redirects: not the API, and served by a third-party plugin. */
const skippedPrefixes = ["/api/docs"];

/**
 * Every route the app answers, from its own OpenAPI document plus `printRoutes()` (which also lists
 * routes hidden from the document, such as /api/openapi.json). New routes are covered without
 * editing the fuzz test. Paths are returned with `{name}` / `{*}` placeholders.
 */
export async function discoverRoutes(app: FastifyInstance): Promise<RouteSpec[]> {
  const found = new Map<string, RouteSpec>();
  const add = (method: string, path: string, operation?: OpenApiOperation) => {
    const upper = method.toUpperCase();
    const key = `${upper} ${path}`;
    if (
      !methods.has(upper) ||
      found.has(key) ||
      skippedPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
    )
      return;
    const body = operation?.requestBody?.content?.["application/json"]?.schema;
    found.set(key, {
      method: upper as HttpMethod,
      path,
      ...(operation?.parameters ? { parameters: operation.parameters } : {}),
      ...(body ? { body } : {}),
    });
  };

  const response = await app.inject({ method: "GET", url: "/api/openapi.json" });
  if (response.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${response.statusCode}`);
  const document = response.json<{ paths: Record<string, Record<string, OpenApiOperation>> }>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      add(method, path, operation);
      // Fastify answers HEAD for every GET route.
      if (method.toLowerCase() === "get") add("HEAD", path, operation);
    }
  }
  for (const { method, path } of parsePrintedRoutes(app.printRoutes({ commonPrefix: false }))) {
    // printRoutes draws a wildcard route as a bare "*" node detached from its prefix; the OpenAPI
    // document has those routes in full.
    if (path.includes("*")) continue;
    add(method, path);
  }
  return [...found.values()].sort(
    (a, b) =>
      routeOrder(a) - routeOrder(b) ||
      a.path.localeCompare(b.path) ||
      methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method),
  );
}

/**
 * `printRoutes()` draws a tree: each line is `│   ` / `    ` per level, then `├── ` or `└── `,
 * the path segment relative to its parent, and the methods in parentheses.
 */
function parsePrintedRoutes(tree: string): RouteSpec[] {
  const routes: RouteSpec[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = [...(match[1] ?? "")].length / 4;
    const segment = match[2] ?? "";
    stack.length = depth;
    const full = `${stack.at(-1) ?? ""}${segment}`;
    stack.push(full);
    for (const method of (match[3] ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)) {
      routes.push({ method: method as HttpMethod, path: full.replace(/:(\w+)/g, "{$1}") });
    }
  }
  return routes;
}

/** Deletes last, so the other methods of a path still find the thing the fuzz knows exists. */
const methodOrder: HttpMethod[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "OPTIONS", "DELETE"];

/**
 * Routes that can end sessions, delete accounts or empty the photo bucket run last, so the
 * product API is fuzzed with a live member session and photos to serve.
 */
function routeOrder(route: RouteSpec): number {
  if (route.path.startsWith("/auth/v1/admin") || route.path === "/auth/v1/invite") return 5;
  if (route.path.startsWith("/auth/v1")) return 4;
  if (route.path.startsWith("/storage/v1/bucket")) return 3;
  if (route.path.startsWith("/storage")) return 2;
  if (route.path.startsWith("/rest")) return 1;
  return 0;
}

/** Names of the `{…}` placeholders of a path, `*` for a wildcard. */
export function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
}

/** The path with each placeholder replaced, in order, by the given raw (already encoded) values. */
export function fillPath(path: string, values: string[]): string {
  let index = 0;
  return path.replace(/\{[^}]+\}/g, () => values[index++] ?? "");
}
