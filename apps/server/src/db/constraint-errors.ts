/**
 * Whether a write was refused because a row it names is gone: SQLite's SQLITE_CONSTRAINT_FOREIGNKEY
 * or PostgreSQL's foreign_key_violation (23503). A check-then-write leaves a gap a concurrent delete
 * can fall into; writing and reading this refusal has none.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  return error.code === "SQLITE_CONSTRAINT_FOREIGNKEY" || error.code === "23503";
}

/** Whether a write was refused because a unique column already holds the value (SQLite's or PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  return error.code === "SQLITE_CONSTRAINT_UNIQUE" || error.code === "23505";
}
