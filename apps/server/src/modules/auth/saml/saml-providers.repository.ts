import type { Kysely, Transaction } from "kysely";
import type { Database, SsoDomainRow, SsoProviderRow } from "../../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** A SAML identity provider with the e-mail domains it signs in. */
export interface SsoProviderRecord extends SsoProviderRow {
  domains: SsoDomainRow[];
}

/** The SAML identity providers registered through the admin API and their domains (ADR 0036). */
export class SamlProvidersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Every provider, oldest first, with its domains: two queries, whatever their number. */
  async list(executor: Executor = this.db): Promise<SsoProviderRecord[]> {
    const providers = await executor.selectFrom("sso_providers").selectAll().orderBy("created_at").orderBy("id").execute();
    const domains = await executor.selectFrom("sso_domains").selectAll().orderBy("domain").execute();
    return providers.map((provider) => ({
      ...provider,
      domains: domains.filter((domain) => domain.sso_provider_id === provider.id),
    }));
  }

  async findById(id: string, executor: Executor = this.db): Promise<SsoProviderRecord | undefined> {
    const provider = await executor.selectFrom("sso_providers").selectAll().where("id", "=", id).executeTakeFirst();
    return provider && this.withDomains(provider, executor);
  }

  async findByEntityId(entityId: string, executor: Executor = this.db): Promise<SsoProviderRow | undefined> {
    return executor.selectFrom("sso_providers").selectAll().where("entity_id", "=", entityId).executeTakeFirst();
  }

  async findByDomain(domain: string, executor: Executor = this.db): Promise<SsoProviderRecord | undefined> {
    const provider = await executor
      .selectFrom("sso_providers")
      .innerJoin("sso_domains", "sso_domains.sso_provider_id", "sso_providers.id")
      .selectAll("sso_providers")
      .where("sso_domains.domain", "=", domain)
      .executeTakeFirst();
    return provider && this.withDomains(provider, executor);
  }

  /** Which of `domains` belong to a provider other than `exceptProviderId`. */
  async domainsTaken(domains: string[], exceptProviderId: string | null, executor: Executor = this.db): Promise<SsoDomainRow[]> {
    if (domains.length === 0) return [];
    let query = executor.selectFrom("sso_domains").selectAll().where("domain", "in", domains);
    if (exceptProviderId) query = query.where("sso_provider_id", "!=", exceptProviderId);
    return query.execute();
  }

  async insert(provider: SsoProviderRow, domains: string[], executor: Executor): Promise<void> {
    await executor.insertInto("sso_providers").values(provider).execute();
    await this.insertDomains(provider.id, domains, provider.created_at, executor);
  }

  async update(
    id: string,
    changes: Partial<Omit<SsoProviderRow, "id" | "created_at">>,
    domains: string[] | undefined,
    executor: Executor,
  ): Promise<void> {
    await executor.updateTable("sso_providers").set(changes).where("id", "=", id).execute();
    if (!domains) return;
    await executor.deleteFrom("sso_domains").where("sso_provider_id", "=", id).execute();
    await this.insertDomains(id, domains, changes.updated_at ?? new Date().toISOString(), executor);
  }

  /** The domains go with it (foreign key), and so do sign-ins under way at it. */
  async delete(id: string, executor: Executor): Promise<boolean> {
    await executor.deleteFrom("oauth_states").where("provider", "=", ssoStateProvider(id)).execute();
    const result = await executor.deleteFrom("sso_providers").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private async insertDomains(providerId: string, domains: string[], now: string, executor: Executor): Promise<void> {
    if (domains.length === 0) return;
    await executor
      .insertInto("sso_domains")
      .values(domains.map((domain) => ({ domain, sso_provider_id: providerId, created_at: now, updated_at: now })))
      .execute();
  }

  private async withDomains(provider: SsoProviderRow, executor: Executor): Promise<SsoProviderRecord> {
    const domains = await executor
      .selectFrom("sso_domains")
      .selectAll()
      .where("sso_provider_id", "=", provider.id)
      .orderBy("domain")
      .execute();
    return { ...provider, domains };
  }
}

/**
 * The `provider` of a SAML sign-in under way and of the identities it links: Supabase Auth's
 * `sso:<provider id>`, which no OpenID Connect provider id can be (they have no colon).
 */
export function ssoStateProvider(providerId: string): string {
  return `${ssoPrefix}${providerId}`;
}

/** The SAML provider's id in such a `provider`; undefined for anything else (an OpenID Connect provider, a wallet). */
export function ssoProviderIdOf(provider: string): string | undefined {
  return provider.startsWith(ssoPrefix) ? provider.slice(ssoPrefix.length) : undefined;
}

const ssoPrefix = "sso:";
