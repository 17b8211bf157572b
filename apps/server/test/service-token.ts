import type { TestApp } from "./test-app";
import { openDatabase } from "../src/db/database";
import { InstanceSettingsRepository } from "../src/modules/instance/instance-settings.repository";
import { SigningKeys } from "../src/modules/auth/core/signing-keys";

/** A service-role token signed with the app's own key (kept in its database), as the CLI prints. */
export async function serviceRoleToken(testApp: TestApp): Promise<string> {
  const database = openDatabase(testApp.config.database);
  try {
    const keys = await SigningKeys.load({
      keys: testApp.config.auth.jwtKeys,
      hsSecret: testApp.config.auth.jwtSecret,
      issuer: testApp.config.auth.jwtIssuer,
      settings: new InstanceSettingsRepository(database.db),
    });
    return await keys.signServiceRoleToken(3600);
  } finally {
    await database.destroy();
  }
}
