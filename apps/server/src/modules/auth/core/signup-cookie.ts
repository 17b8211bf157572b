import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import type { FastifyRequest } from "fastify";

/** Holds the secret that binds a sign-up to the browser that made it (ADR 0014). */
const signupCookie = "memory-box-signup";

/** HttpOnly (no script reads it), SameSite=Lax (sent when the e-mailed link is opened), only to /auth/v1. */
export function signupCookieHeader(secret: string, maxAgeSeconds: number, secure: boolean): string {
  return serializeCookie(signupCookie, secret, {
    httpOnly: true,
    sameSite: "lax",
    path: "/auth/v1",
    maxAge: maxAgeSeconds,
    secure,
  });
}

/** The secret a sign-up left in this browser, read when its link or code is used. */
export function browserSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[signupCookie] : undefined;
}
