import { createContext, use } from "react";
import type { Session, User } from "@supabase/auth-js";

/** `loading` lasts until the auth client has restored (or failed to restore) the stored session. */
export type AuthStatus = "loading" | "signedIn" | "signedOut";

export interface AuthContextValue {
  status: AuthStatus;
  session: Session | null;
  user: User | null;
  /**
   * The member has a verified second factor that this session has not proven yet (aal1): the
   * member screens ask for the code before anything else (ADR 0022).
   */
  needsSecondFactor: boolean;
  /** Ends the session. A failure is logged, not thrown: there is nothing the visitor could do about it. */
  signOut: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The current session. Only inside `<AuthProvider>`. */
export function useAuth(): AuthContextValue {
  const value = use(AuthContext);
  if (value === null) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}

const signOutListeners = new Set<() => void>();

/**
 * Calls `listener` whenever a session ends (the auth client's SIGNED_OUT, announced by
 * `<AuthProvider>`), for state that must not outlive it, such as the member screens' query cache,
 * which is loaded with those screens. Returns the unsubscribe.
 */
export function onSignOut(listener: () => void): () => void {
  signOutListeners.add(listener);
  return () => signOutListeners.delete(listener);
}

/** For `<AuthProvider>`: the session has ended. */
export function announceSignOut(): void {
  for (const listener of signOutListeners) listener();
}
