/** Route patterns, as the router table declares them. */
export const routePatterns = {
  home: "/",
  auth: "/auth",
  memory: "/memory/:id",
} as const;

/** Links to the app's screens; build URLs here rather than by hand so a route can move in one place. */
export const paths = {
  home: routePatterns.home,
  auth: routePatterns.auth,
  memory: (id: string) => `/memory/${encodeURIComponent(id)}`,
} as const;
