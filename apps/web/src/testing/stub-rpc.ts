import { vi } from "vitest";

/** Answers one server function: a JSON value, a Response (for HTTP errors), or a throw (network failure). */
export type RpcHandler = (args: Record<string, unknown>, init: RequestInit | undefined) => unknown;

/**
 * Replaces global fetch with one that answers /rest/v1/rpc/{name} from `handlers`. Unit tests
 * only; the browser tests drive the real server. Undone by `vi.unstubAllGlobals()` after each test.
 */
export function stubRpc(handlers: Record<string, RpcHandler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    const name = /\/rest\/v1\/rpc\/([^/?#]+)/.exec(url)?.[1];
    const handler = name === undefined ? undefined : handlers[name];
    if (handler === undefined) return Response.json({ message: `no stub for ${url}` }, { status: 404 });
    const args = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>;
    const result = await handler(args, init);
    return result instanceof Response ? result : Response.json(result);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** The calls made to one function, as [args, headers] pairs. */
export function rpcCalls(fetchMock: ReturnType<typeof stubRpc>, name: string) {
  return fetchMock.mock.calls
    .filter(([input]) => urlOf(input).endsWith(`/rest/v1/rpc/${name}`))
    .map(([, init]) => ({
      args: JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>,
      headers: new Headers(init?.headers),
    }));
}

function urlOf(input: RequestInfo | URL): string {
  return typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
}
