import { ErrorCode } from "@memory-box/contract";

import { getAuthClient } from "./auth-client";
import { activeIntl } from "./intl";
import { pause } from "./pause";

/** The product API answered with an error; `code` is the server's stable error code (`ErrorCode` of the contract). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** For validation errors: which fields broke which rule, as the server names them (`tags.3`). */
    readonly fieldErrors: readonly FieldError[] = [],
    /** A part of the server out of reach (`503` with `Retry-After`): in how many seconds to try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface FieldError {
  path: string;
  message: string;
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** JSON-encoded unless it is FormData (uploads). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * A read the server answered `503` because a part of it is out of reach (ADR 0073) is asked again
 * after the `Retry-After` it gave, this many times, when that wait is short enough for a screen
 * that is loading; a write is never sent again here (its caller, with its Idempotency-Key, decides).
 */
export const readRetriesAfterOutage = 2;
const longestRetryWaitSeconds = 10;

/**
 * Calls `/api/v1…` as the signed-in member: the current access token (refreshed first by auth-js
 * when it is about to expire) as a Bearer token; JSON in and out. Transport only: no toasts, no
 * redirects; callers decide what an error means to the person. A read refused while a part of the
 * server is out of reach is tried again after the wait the server names (`readRetriesAfterOutage`).
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const method = request.method ?? "GET";
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fetchOnce<T>(path, method, request);
    } catch (error) {
      const wait = error instanceof ApiError ? error.retryAfterSeconds : undefined;
      if (method !== "GET" || wait === undefined || wait > longestRetryWaitSeconds || attempt >= readRetriesAfterOutage)
        throw error;
      await waitToRetry(wait * 1000, request.signal);
    }
  }
}

async function fetchOnce<T>(path: string, method: string, request: ApiRequest): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...request.headers, ...(await authorization()) };
  let body: BodyInit | undefined;
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(request.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, signal: request.signal });
  } catch (error) {
    throw request.signal?.aborted ? error : new NetworkError({ cause: error });
  }
  if (response.status === 204) return undefined as T;
  return answerOf<T>(response.status, await response.text(), retryAfterOf(response.status, response.headers.get("Retry-After")));
}

/** `Retry-After` in seconds on a 503 (a number of seconds or an HTTP date), else undefined. */
function retryAfterOf(status: number, header: string | null): number | undefined {
  if (status !== 503 || header === null) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : undefined;
}

/** Waits `ms`, or rejects as the request's signal does when it is aborted first. */
/** Waits before asking again; rejects as an aborted fetch does when the caller gives up meanwhile. */
async function waitToRetry(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  await pause(ms, signal);
  if (signal?.aborted)
    throw signal.reason instanceof Error ? signal.reason : new DOMException("The request was cancelled.", "AbortError");
}

export interface UploadRequest {
  signal?: AbortSignal;
  /** Told how much of the body has been sent, from 0 to 1. */
  onProgress?: (sent: number) => void;
  /** The body's type when it is a file sent as it is (a form's type is set by the browser). */
  contentType?: string;
}

/**
 * `POST`s a multipart body, or a file as it is, as the signed-in member, reporting how much of it
 * has been sent: fetch cannot tell upload progress, XMLHttpRequest can. Answers and errors as `apiFetch`.
 */
export async function apiUpload<T>(
  path: string,
  body: FormData | Blob,
  { signal, onProgress, contentType }: UploadRequest = {},
): Promise<T> {
  const headers = {
    Accept: "application/json",
    ...(contentType ? { "Content-Type": contentType } : {}),
    ...(await authorization()),
  };
  signal?.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      // answerOf throws the ApiError of a refusal; the promise rejects with it.
      new Promise<T>((answered) =>
        answered(answerOf<T>(xhr.status, xhr.responseText, retryAfterOf(xhr.status, xhr.getResponseHeader("Retry-After")))),
      ).then(resolve, reject);
    };
    xhr.onerror = () => reject(new NetworkError());
    xhr.ontimeout = () => reject(new NetworkError());
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The server could not be reached, or the connection broke before it answered. */
export class NetworkError extends Error {
  constructor(options?: ErrorOptions) {
    super(activeIntl().formatMessage({ id: "api.unreachable" }), options);
    this.name = "NetworkError";
  }
}

async function authorization(): Promise<Record<string, string>> {
  const { data } = await getAuthClient().getSession();
  return data.session ? { Authorization: `Bearer ${data.session.access_token}` } : {};
}

/**
 * The server no longer knows this session (signed out on another device, removed by an owner,
 * password changed elsewhere, revoked): it is ended here too, so the session guard shows the
 * sign-in screen instead of a screen whose every request fails, and the sign-out forgets what the
 * app kept (the query cache, the copies kept for offline; ADR 0031, ADR 0050). Also called by the
 * live stream when it is told the session ended, or refused with 401.
 */
export function endSessionGoneFromServer(): void {
  getAuthClient()
    .signOut({ scope: "local" })
    .catch((error: unknown) => console.error("Could not end the session the server refused:", error));
}

/** A response's JSON, or the ApiError its status and body describe. */
function answerOf<T>(status: number, text: string, retryAfterSeconds?: number): T {
  if (status === 204) return undefined as T;
  const parsed = text ? safeJson(text) : undefined;
  if (status === 401) endSessionGoneFromServer();
  if (status < 200 || status >= 300) {
    const error = (parsed ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
    throw new ApiError(
      status,
      // Something in front of the server (a proxy's HTML page) answered without a code of ours.
      typeof error.code === "string" ? error.code : ErrorCode.unexpected_failure,
      typeof error.message === "string" ? error.message : activeIntl().formatMessage({ id: "api.failedStatus" }, { status }),
      fieldErrorsOf(error.details),
      retryAfterSeconds,
    );
  }
  return parsed as T;
}

/** The `details` of a validation error: which field broke which rule. */
function fieldErrorsOf(details: unknown): FieldError[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail: unknown) => {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === "string" && typeof message === "string" ? [{ path, message }] : [];
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
