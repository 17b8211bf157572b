import { isErrorCode } from "@memory-box/contract";
import type { LightMyRequestResponse } from "fastify";
import type { FuzzRequest } from "./arbitraries";

/** The auth API's choice of envelope (plugins/error-handler.ts): the current one for 2024-01-01 and later. */
function usesCurrentAuthApi(headers: Record<string, string>): boolean {
  const version = headers["x-supabase-api-version"];
  return typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= "2024-01-01";
}

function pathOf(url: string): string {
  return url.split("?")[0] ?? url;
}

/** A short description of the request, for failure messages (bodies and long values cut). */
export function describeRequest(request: FuzzRequest): string {
  const cut = (value: string, max = 300) => (value.length > max ? `${value.slice(0, max)}… (${value.length} chars)` : value);
  const payload =
    request.payload === undefined
      ? "(none)"
      : typeof request.payload === "string"
        ? JSON.stringify(cut(request.payload))
        : `<${request.payload.length} bytes> ${cut(request.payload.toString("latin1"), 200)}`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${JSON.stringify(cut(value, 120))}`);
  return [`${request.method} ${cut(request.url, 500)}`, ...headers, `body: ${payload}`].join("\n  ");
}

/**
 * What every answer must be: never a 5xx, and every error a JSON body with a code of the contract's
 * catalogue, in the envelope of the API that answered it.
 * Returns a list of problems (empty when the response is fine).
 */
export function problemsWith(request: FuzzRequest, response: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  const status = response.statusCode;
  if (status >= 500) problems.push(`status ${status}`);
  if (status >= 300 && status < 400 && !response.headers.location) problems.push(`redirect ${status} without a Location`);
  if (status < 400) return problems;

  const contentType = String(response.headers["content-type"] ?? "");
  if (!/^application\/json\b/.test(contentType)) problems.push(`error with content-type ${JSON.stringify(contentType)}`);
  // A HEAD answer has headers only.
  if (request.method === "HEAD") return problems;

  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    problems.push(`error body is not JSON: ${JSON.stringify(response.body.slice(0, 200))}`);
    return problems;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    problems.push(`error body is not an object: ${response.body.slice(0, 200)}`);
    return problems;
  }
  const errorBody = parsed as Record<string, unknown>;
  const code = typeof errorBody.code === "string" ? errorBody.code : errorBody.error_code;
  if (typeof code === "string" && !isErrorCode(code)) problems.push(`error code ${JSON.stringify(code)} is not in the catalogue`);
  const path = pathOf(request.url);
  // "/auth/v1/../x" is resolved before routing, so which API answers is not the prefix's.
  const dotSegments = /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);

  if (!dotSegments && (path.startsWith("/auth/v1/") || path === "/auth/v1")) {
    if (usesCurrentAuthApi(request.headers)) {
      if (typeof errorBody.code !== "string" || typeof errorBody.message !== "string")
        problems.push(`auth error is not {code, message}: ${response.body.slice(0, 200)}`);
    } else if (typeof errorBody.error_code !== "string" || errorBody.code !== status || typeof errorBody.msg !== "string") {
      problems.push(`legacy auth error is not {code: ${status}, error_code, msg}: ${response.body.slice(0, 200)}`);
    }
    return problems;
  }

  if (dotSegments && typeof errorBody.error_code === "string") return problems;
  if (typeof errorBody.code !== "string" || errorBody.code === "")
    problems.push(`error without a string code: ${response.body.slice(0, 200)}`);
  if (typeof errorBody.message !== "string") problems.push(`error without a message: ${response.body.slice(0, 200)}`);
  // Fastify's own error body ({statusCode: 414, code: "FST_ERR_…"}): an answer that bypassed the app's error handlers.
  if (typeof errorBody.code === "string" && errorBody.code.startsWith("FST_"))
    problems.push(`Fastify's internal error body, not the app's: ${response.body.slice(0, 200)}`);
  // Supabase Storage's envelope, where bucket routes answer in it.
  else if ("statusCode" in errorBody && (errorBody.statusCode !== String(status) || typeof errorBody.error !== "string")) {
    problems.push(`storage error is not {statusCode: "${status}", error, code, message}: ${response.body.slice(0, 200)}`);
  }
  return problems;
}
