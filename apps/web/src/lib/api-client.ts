import { ErrorCode } from "@memory-box/contract";

import { getAuthClient } from "./auth-client";

/** The product API answered with an error; `code` is the server's stable error code (`ErrorCode` of the contract). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** JSON-encoded unless it is FormData (uploads). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Calls `/api/v1…` as the signed-in member: the current access token (refreshed first by auth-js
 * when it is about to expire) as a Bearer token; JSON in and out. Transport only: no toasts, no
 * redirects; callers decide what an error means to the person.
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const { data } = await getAuthClient().getSession();
  const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
  if (data.session) headers.Authorization = `Bearer ${data.session.access_token}`;
  let body: BodyInit | undefined;
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(request.body);
  }
  const response = await fetch(path, { method: request.method ?? "GET", headers, body, signal: request.signal });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = (parsed ?? {}) as { code?: unknown; message?: unknown };
    throw new ApiError(
      response.status,
      // Something in front of the server (a proxy's HTML page) answered without a code of ours.
      typeof error.code === "string" ? error.code : ErrorCode.unexpected_failure,
      typeof error.message === "string" ? error.message : `Request failed with HTTP ${response.status}`,
    );
  }
  return parsed as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
