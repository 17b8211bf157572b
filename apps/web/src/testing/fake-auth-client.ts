import {
  AuthApiError,
  type AuthChangeEvent,
  type OAuthGrant,
  type Session,
  type Subscription,
  type User,
} from "@supabase/auth-js";
import { vi } from "vitest";

import type { AuthClient } from "@/lib/auth-client";

type Listener = (event: AuthChangeEvent, session: Session | null) => void | Promise<void>;

export function fakeUser(overrides: Partial<User> = {}): User {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    aud: "authenticated",
    role: "authenticated",
    email: "alex@example.com",
    app_metadata: { provider: "email" },
    user_metadata: {},
    created_at: "2024-01-01T00:00:00Z",
    ...overrides,
  };
}

export function fakeSession(user: User = fakeUser()): Session {
  return {
    access_token: `access-token-for-${user.id}`,
    refresh_token: "refresh-token",
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: "bearer",
    user,
  };
}

/** An access token with the given claims, shaped like a JWT (the signature is not checked by the app). */
export function fakeAccessToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${encode({ alg: "none" })}.${encode(claims)}.signature`;
}

export interface FakeAuthClientOptions {
  /** The session restored at start-up; none by default. */
  session?: Session | null;
  /** Hold INITIAL_SESSION back until `finishInitialising()`, to observe the loading state. */
  deferInitialSession?: boolean;
}

/**
 * A stand-in for GoTrueClient with the methods the app uses. It behaves like a healthy server by
 * default: password sign-in succeeds (and announces SIGNED_IN), sign-up succeeds without a session
 * (confirmation pending). The methods are Vitest mocks, so a test can make any call fail.
 */
export class FakeAuthClient implements AuthClient {
  session: Session | null;
  private readonly listeners = new Map<symbol, Listener>();
  private readonly initialised: Promise<void>;
  private markInitialised: () => void = () => {};

  constructor({ session = null, deferInitialSession = false }: FakeAuthClientOptions = {}) {
    this.session = session;
    this.initialised = deferInitialSession
      ? new Promise((resolve) => {
          this.markInitialised = resolve;
        })
      : Promise.resolve();
  }

  finishInitialising(): void {
    this.markInitialised();
  }

  /** Announces an event to every subscriber, as the real client does after a change. */
  emit(event: AuthChangeEvent, session: Session | null): void {
    this.session = session;
    for (const listener of this.listeners.values()) void listener(event, session);
  }

  onAuthStateChange(callback: Listener): { data: { subscription: Subscription } } {
    const id = Symbol("subscription");
    this.listeners.set(id, callback);
    // Like GoTrueClient: INITIAL_SESSION arrives asynchronously, once initialisation is done.
    void this.initialised.then(() => {
      if (this.listeners.has(id)) void callback("INITIAL_SESSION", this.session);
    });
    const subscription: Subscription = {
      id,
      callback: (event, session) => void callback(event, session),
      unsubscribe: () => this.listeners.delete(id),
    };
    return { data: { subscription } };
  }

  getSession = vi.fn<AuthClient["getSession"]>(async () => {
    return this.session ? { data: { session: this.session }, error: null } : { data: { session: null }, error: null };
  });

  /** `GET /user`: the session's user (nothing pending), or not signed in. */
  getUser = vi.fn<AuthClient["getUser"]>(async () =>
    this.session
      ? { data: { user: this.session.user }, error: null }
      : { data: { user: null }, error: new AuthApiError("Auth session missing!", 400, "session_not_found") },
  );

  signInWithPassword = vi.fn<AuthClient["signInWithPassword"]>(async (credentials) => {
    const email = "email" in credentials ? credentials.email : undefined;
    const session = fakeSession(fakeUser({ email }));
    this.emit("SIGNED_IN", session);
    return { data: { user: session.user, session }, error: null };
  });

  signUp = vi.fn<AuthClient["signUp"]>(async (credentials) => {
    const email = "email" in credentials ? credentials.email : undefined;
    return { data: { user: fakeUser({ email }), session: null }, error: null };
  });

  resetPasswordForEmail = vi.fn<AuthClient["resetPasswordForEmail"]>(async () => ({ data: {}, error: null }));

  resend = vi.fn<AuthClient["resend"]>(async () => ({ data: { user: null, session: null }, error: null }));

  signInWithOtp = vi.fn<AuthClient["signInWithOtp"]>(async () => ({ data: { user: null, session: null }, error: null }));

  /** A right code signs in (SIGNED_IN); make it fail with `mockResolvedValueOnce`. */
  verifyOtp = vi.fn<AuthClient["verifyOtp"]>(async (params) => {
    const session = fakeSession(fakeUser({ email: "email" in params ? params.email : undefined }));
    this.emit("SIGNED_IN", session);
    return { data: { user: session.user, session }, error: null };
  });

  updateUser = vi.fn<AuthClient["updateUser"]>(async () => {
    const user = this.session?.user ?? fakeUser();
    if (this.session) this.emit("USER_UPDATED", this.session);
    return { data: { user }, error: null };
  });

  /** The server e-mails a reauthentication code; nothing comes back but "no error". */
  reauthenticate = vi.fn<AuthClient["reauthenticate"]>(async () => ({ data: { user: null, session: null }, error: null }));

  /** Like GoTrueClient: a new session for the same account, as the server has it now (TOKEN_REFRESHED). */
  refreshSession = vi.fn<AuthClient["refreshSession"]>(async () => {
    if (!this.session) return { data: { user: null, session: null }, error: null };
    const session = { ...this.session, access_token: `${this.session.access_token}-refreshed` };
    this.emit("TOKEN_REFRESHED", session);
    return { data: { user: session.user, session }, error: null };
  });

  /** Keeps the session a server answered outside auth-js (a recovery code's), as SIGNED_IN. */
  setSession = vi.fn<AuthClient["setSession"]>(async ({ access_token, refresh_token }) => {
    const session = { ...(this.session ?? fakeSession()), access_token, refresh_token };
    this.emit("SIGNED_IN", session);
    return { data: { user: session.user, session }, error: null };
  });

  /**
   * The second-factor API, as far as the app uses it: one TOTP factor to enrol ("fake-factor"),
   * whose right code is "123456"; a verify raises the session to aal2 (MFA_CHALLENGE_VERIFIED).
   */
  readonly mfaMocks = {
    enroll: vi.fn(async () => ({
      data: {
        id: "fake-factor",
        type: "totp" as const,
        friendly_name: "Authenticator app",
        totp: { qr_code: "data:image/svg+xml;utf-8,<svg/>", secret: "JBSWY3DPEHPK3PXP", uri: "otpauth://totp/x" },
      },
      error: null,
    })),
    challengeAndVerify: vi.fn(async ({ code }: { factorId: string; code: string }) => {
      if (code !== "123456")
        return { data: null, error: new AuthApiError("Invalid TOTP code entered", 422, "mfa_verification_failed") };
      const session = { ...(this.session ?? fakeSession()), access_token: fakeAccessToken({ aal: "aal2" }) };
      this.emit("MFA_CHALLENGE_VERIFIED", session);
      return { data: session, error: null };
    }),
    unenroll: vi.fn(async ({ factorId }: { factorId: string }) => ({ data: { id: factorId }, error: null })),
  };

  mfa = this.mfaMocks as unknown as AuthClient["mfa"];

  /** Passkeys, as far as the app uses them: none registered; a sign-in the browser's prompt refused. */
  /**
   * The OAuth server's consent calls (ADR 0075): by default a request from "Photo Frame Studio"
   * asking for the e-mail address, allowed or denied with a redirect back to it.
   */
  readonly oauthMocks = {
    getAuthorizationDetails: vi.fn(async (authorizationId: string) => ({
      data: {
        authorization_id: authorizationId,
        redirect_uri: "https://frames.example.com/callback",
        client: { id: "client-1", name: "Photo Frame Studio", uri: "https://frames.example.com", logo_uri: "" },
        user: { id: "user-1", email: this.session?.user.email ?? "ann@example.com" },
        scope: "openid email",
      } as
        | { authorization_id: string; redirect_uri: string; client: object; user: object; scope: string }
        | { redirect_url: string },
      error: null as AuthApiError | null,
    })),
    approveAuthorization: vi.fn(async (authorizationId: string, _options?: { skipBrowserRedirect?: boolean }) => ({
      data: { redirect_url: `https://frames.example.com/callback?code=code-of-${authorizationId}&state=s` },
      error: null as AuthApiError | null,
    })),
    denyAuthorization: vi.fn(async (_authorizationId: string, _options?: { skipBrowserRedirect?: boolean }) => ({
      data: { redirect_url: "https://frames.example.com/callback?error=access_denied&state=s" },
      error: null as AuthApiError | null,
    })),
    /** The member's grants (Settings → Apps): none unless a test says otherwise. */
    listGrants: vi.fn(async () => ({ data: [] as OAuthGrant[], error: null as AuthApiError | null })),
    revokeGrant: vi.fn(async (_options: { clientId: string }) => ({ data: {}, error: null as AuthApiError | null })),
  };

  oauth = this.oauthMocks as unknown as AuthClient["oauth"];

  readonly passkeyMocks = {
    list: vi.fn(async () => ({ data: [], error: null })),
    delete: vi.fn(async () => ({ data: null, error: null })),
  };

  passkey = this.passkeyMocks as unknown as AuthClient["passkey"];

  registerPasskey = vi.fn(async () => ({
    data: null,
    error: new AuthApiError("The operation either timed out or was not allowed.", 400, undefined),
  })) as unknown as AuthClient["registerPasskey"];

  signInWithPasskey = vi.fn(async () => ({
    data: null,
    error: new AuthApiError("This passkey is not registered here", 400, "webauthn_verification_failed"),
  })) as unknown as AuthClient["signInWithPasskey"];

  /** Provider sign-in (ADR 0034): the URL to go to; no identity linked. */
  signInWithOAuth = vi.fn(async ({ provider }: { provider: string }) => ({
    data: { provider, url: `https://provider.example/authorize?client=${provider}` },
    error: null,
  })) as unknown as AuthClient["signInWithOAuth"];

  /** Single sign-on (ADR 0036): answers the identity provider's address, as `POST /sso` does for a registered domain. */
  signInWithSSO = vi.fn(async () => ({
    data: { url: "https://idp.example/sso?SAMLRequest=request" },
    error: null,
  })) as unknown as AuthClient["signInWithSSO"];

  /** Wallet sign-in (ADR 0035): refused as a wallet no member connected, unless a test says otherwise. */
  signInWithWeb3 = vi.fn(async () => ({
    data: { user: null, session: null },
    error: new AuthApiError("No member has connected this wallet.", 422, "signup_disabled"),
  })) as unknown as AuthClient["signInWithWeb3"];

  getUserIdentities = vi.fn(async () => ({
    data: { identities: [] },
    error: null,
  })) as unknown as AuthClient["getUserIdentities"];
  linkIdentity = vi.fn(async () => ({ data: { provider: "", url: "" }, error: null })) as unknown as AuthClient["linkIdentity"];
  unlinkIdentity = vi.fn(async () => ({ data: {}, error: null })) as unknown as AuthClient["unlinkIdentity"];

  signOut = vi.fn<AuthClient["signOut"]>(async () => {
    this.emit("SIGNED_OUT", null);
    return { error: null };
  });
}
