import type { Config } from "../config";
import { InstanceSettingsRepository } from "../modules/instance";
import { SigningKeys } from "../modules/auth";
import { type Command, type CommandContext, parseCommandArgs, UsageError } from "./command";

/** What this command needs beyond the usual context; run-cli passes the loaded configuration. */
export interface ConfiguredCommandContext extends CommandContext {
  config: Config;
}

const defaultDays = 3650;
const maxDays = 36_500;
const secondsPerDay = 24 * 60 * 60;

const usage = [
  "node apps/server/dist/cli.js service-token            print a service-role token for the admin API (valid 10 years)",
  "node apps/server/dist/cli.js service-token --days N   the same, valid N days",
].join("\n");

/**
 * `service-token [--days N]`: prints a service-role JWT, signed with the server's own key (the
 * configured AUTH_JWT_KEYS, or the key generated in the database), for calling /auth/v1/admin
 * with curl or auth-js. Only the token is printed, so `$(…)` captures it.
 */
export const serviceTokenCommand = {
  usage,

  async run({ args, db, out, config }: ConfiguredCommandContext) {
    const { values, positionals } = parseCommandArgs(args, ["days"]);
    if (values.help) {
      out(usage);
      return;
    }
    if (positionals.length > 0) throw new UsageError("service-token takes no arguments besides --days.");
    const days = values.days === undefined ? defaultDays : parseDays(values.days);
    const keys = await SigningKeys.load({
      keys: config.auth.jwtKeys,
      hsSecret: config.auth.jwtSecret,
      issuer: config.auth.jwtIssuer,
      settings: new InstanceSettingsRepository(db),
    });
    out(await keys.signServiceRoleToken(days * secondsPerDay));
  },
} satisfies Command;

function parseDays(raw: string): number {
  const days = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= maxDays)) throw new UsageError(`--days must be a whole number from 1 to ${maxDays}.`);
  return days;
}
