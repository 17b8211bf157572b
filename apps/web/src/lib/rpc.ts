/** A server function answered with an HTTP error. */
export class RpcError extends Error {
  constructor(
    readonly fn: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export interface RpcOptions {
  /** Sent as a Bearer token, for functions that act on the caller's own account. */
  accessToken?: string;
}

/**
 * Calls a server function under /rest/v1/rpc (PostgREST style: named arguments in a JSON object,
 * a bare JSON value back). Rejects with an RpcError on an HTTP error and with fetch's TypeError
 * when the server cannot be reached.
 */
export async function callRpc<T>(fn: string, args: Record<string, unknown>, options: RpcOptions = {}): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;

  const response = await fetch(`/rest/v1/rpc/${encodeURIComponent(fn)}`, {
    method: "POST",
    headers,
    body: JSON.stringify(args),
  });
  const text = await response.text();
  if (!response.ok) throw new RpcError(fn, response.status, errorMessage(text) ?? `${fn} failed with HTTP ${response.status}`);
  return (text === "" ? null : JSON.parse(text)) as T;
}

function errorMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "message" in parsed && typeof parsed.message === "string") {
      return parsed.message;
    }
  } catch {
    // Not JSON (a proxy's error page, say); the status says enough.
  }
  return undefined;
}
