// Deliberately loose (real addresses are odd), but it rejects what is surely a typo or a paste
// of several addresses: no blanks, separators, brackets or quotes, and a dotted domain.
const emailPattern = /^[^\s@,;<>()[\]\\"]{1,64}@[^\s@,;<>()[\]\\".]+(?:\.[^\s@,;<>()[\]\\".]+)+$/u;

/**
 * The canonical form of an address (trimmed, lower-case), or null when it is not an address.
 * The one rule for every place that takes an address: the invitation list and the auth service
 * must agree on what an address is.
 */
export function parseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && emailPattern.test(email) ? email : null;
}
