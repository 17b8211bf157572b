// The few parts of `oidc-provider` (an untyped package) the tests' provider uses.
declare module "oidc-provider" {
  import type { RequestListener } from "node:http";

  interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys?: string[] };
    features?: Record<string, unknown>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    findAccount?: (context: unknown, id: string) => Account | undefined | Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): RequestListener;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
