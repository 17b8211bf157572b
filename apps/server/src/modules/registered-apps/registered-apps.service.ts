import type { AppRegistration, RegisteredApp, RegisteredAppList } from "@memory-box/contract";
import type { AuditEvent } from "../audit";
import type { OauthClientsService, OauthClientView } from "../auth";

/** An owner asking, as the invitation list knows them. */
export interface AppsCaller {
  userId: string;
  email: string;
}

export interface RegisteredAppsServiceDeps {
  clients: OauthClientsService;
  /** Throws 403 `owner_only` unless the caller is an owner. */
  requireOwner: (caller: AppsCaller) => Promise<void>;
  audit: { record: (event: AuditEvent) => Promise<void> };
}

/** More than owners register by hand; the list is read in pages of this many. */
const pageSize = 200;

/**
 * Settings → Apps (issue #36): owners register the apps that may sign members in with Memory Box,
 * through the same registry and rules as the admin API's `/admin/oauth/clients` (ADR 0071), and
 * remove them or give them a new secret. Each change is in the audit log, with who made it.
 */
export class RegisteredAppsService {
  constructor(private readonly deps: RegisteredAppsServiceDeps) {}

  /** 403 `owner_only` for anyone else: checked before a body is read, so a member learns nothing of the rules. */
  async assertOwner(caller: AppsCaller): Promise<void> {
    await this.deps.requireOwner(caller);
  }

  async list(caller: AppsCaller): Promise<RegisteredAppList> {
    await this.deps.requireOwner(caller);
    const apps: RegisteredApp[] = [];
    for (let page = 1; ; page += 1) {
      const { clients, total } = await this.deps.clients.list(page, pageSize);
      apps.push(...clients.map(present));
      if (clients.length === 0 || apps.length >= total) return { apps };
    }
  }

  /** Both grant types (code and refresh); a public app authenticates with PKCE only, a confidential one gets a secret, shown once. */
  async register(caller: AppsCaller, input: AppRegistration): Promise<RegisteredApp> {
    await this.deps.requireOwner(caller);
    const client = await this.deps.clients.register({
      client_name: input.name,
      redirect_uris: input.redirect_uris,
      client_type: input.client_type,
    });
    await this.record(caller, "oauth_client.registered", client);
    return present(client);
  }

  /** The app's sessions end with it (they cascade from the client). */
  async remove(caller: AppsCaller, clientId: string): Promise<void> {
    await this.deps.requireOwner(caller);
    const client = await this.deps.clients.get(clientId);
    await this.deps.clients.remove(clientId);
    await this.record(caller, "oauth_client.removed", client);
  }

  /** The old secret stops working at once. */
  async newSecret(caller: AppsCaller, clientId: string): Promise<RegisteredApp> {
    await this.deps.requireOwner(caller);
    const client = await this.deps.clients.regenerateSecret(clientId);
    await this.record(caller, "oauth_client.secret_regenerated", client);
    return present(client);
  }

  private async record(caller: AppsCaller, action: string, client: OauthClientView): Promise<void> {
    await this.deps.audit.record({
      action,
      actorId: caller.userId,
      actorEmail: caller.email,
      detail: { client_id: client.client_id, name: client.client_name ?? null },
    });
  }
}

function present(client: OauthClientView): RegisteredApp {
  return {
    client_id: client.client_id,
    name: client.client_name ?? "",
    client_type: client.client_type,
    redirect_uris: client.redirect_uris,
    created_at: client.created_at,
    ...(client.client_secret === undefined ? {} : { client_secret: client.client_secret }),
  };
}
