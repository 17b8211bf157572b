import type { IdentityRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { IdentitiesRepository } from "./identities.repository";
import type { RequestContext } from "../core/session.service";

/*
 * Connecting a new way in to a signed-in member, as OpenID Connect providers (ADR 0034) and wallets
 * (ADR 0035) both do it: refused when that provider account is linked already, to this member or
 * another, and recorded in the audit log once written.
 */

/** Refuses a provider account that is linked already, naming whose it is as Supabase Auth does. */
export async function assertNotLinked(
  identities: IdentitiesRepository,
  provider: string,
  subject: string,
  target: UserRow,
): Promise<void> {
  const existing = await identities.findByProviderSubject(provider, subject);
  if (existing)
    throw new AppError("identity_already_exists", {
      message: existing.user_id === target.id ? "Identity is already linked" : "Identity is already linked to another user",
    });
}

/**
 * Writes `identity` for `target` (its `user_id`) and records it; refused, with nothing written, when
 * another link of the same provider account committed first.
 */
export async function insertLink(
  deps: { identities: IdentitiesRepository; audit: AuthAuditLog },
  target: UserRow,
  identity: IdentityRow,
  context: RequestContext,
  auditDetail: Record<string, unknown>,
): Promise<void> {
  const inserted = await deps.identities.transaction((trx) => deps.identities.insert(identity, trx));
  if (!inserted) throw new AppError("identity_already_exists", { message: "Identity is already linked to another user" });
  await deps.audit.record({
    action: "identity.linked",
    actorId: target.id,
    actorEmail: target.email,
    ip: context.ip,
    detail: auditDetail,
  });
}
