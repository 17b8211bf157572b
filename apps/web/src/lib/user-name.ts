/** What the app calls a person: their full name from the profile, else the part of the e-mail before the @. */
export function userDisplayName(user: { email?: string; user_metadata?: Record<string, unknown> } | null | undefined): string {
  const fullName: unknown = user?.user_metadata?.full_name;
  if (typeof fullName === "string" && fullName.trim() !== "") return fullName.trim();
  return user?.email?.split("@")[0] ?? "";
}
