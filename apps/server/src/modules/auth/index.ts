export { adminRoutes } from "./admin.routes";

export { createAuthModule, type AuthModule } from "./auth.module";
export { authRoutes } from "./auth.routes";
export { devicesRoutes } from "./devices.routes";
export { singleSignOnRoutes } from "./single-sign-on.routes";
export { ssoRoutes } from "./sso.routes";
export { hasVerifiedFactor } from "./factor-summary";
export type { Caller, LiveSession, SessionLookup, SessionService } from "./session.service";
export { SigningKeys } from "./signing-keys";
