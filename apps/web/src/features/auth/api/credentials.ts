import { getAuthClient } from "@/lib/auth-client";

export interface Credentials {
  email: string;
  password: string;
}

export function signInWithPassword({ email, password }: Credentials) {
  return getAuthClient().signInWithPassword({ email, password });
}

/** The confirmation e-mail's link comes back to the home screen, where the session is picked up from the URL. */
export function signUpWithPassword({ email, password }: Credentials) {
  return getAuthClient().signUp({ email, password, options: { emailRedirectTo: `${window.location.origin}/` } });
}
