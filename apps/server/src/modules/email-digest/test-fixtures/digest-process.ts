/**
 * One digest run as another server process makes it, for the test that kills such a process
 * (SIGKILL) while its digest is in flight: the database, the mail server, the signing secret and
 * the test's clock come in the environment.
 */
import { openDatabase } from "../../../db/database";
import type { DatabaseConfig } from "../../../config";
import { createMailer } from "../../mail";
import { EmailDigestRepository } from "../email-digest.repository";
import { EmailDigestService } from "../email-digest.service";

const environment = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const database = openDatabase(JSON.parse(environment("DIGEST_DATABASE")) as DatabaseConfig);
const offset = Number(environment("DIGEST_CLOCK_OFFSET"));
const publicUrl = environment("DIGEST_PUBLIC_URL");
const service = new EmailDigestService({
  digests: new EmailDigestRepository(database.db),
  mailer: createMailer({
    smtpUrl: environment("DIGEST_SMTP_URL"),
    from: "x@box.example.org",
    dataDir: "/nonexistent",
    logger: silent,
  }),
  secret: Buffer.from(environment("DIGEST_SECRET"), "utf8"),
  siteUrl: publicUrl,
  publicUrl,
  log: silent,
  now: () => new Date(Date.now() + offset),
});
await service.runDue();
process.stdout.write("run over\n");
await database.destroy();
