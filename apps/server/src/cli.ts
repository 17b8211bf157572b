import { inspect } from "node:util";
import { runBelowNormalPriority } from "./lib/priority";
import { runCli } from "./cli/run-cli";
import { createPrivateFiles } from "./lib/private-files";

/** The operator commands' entry point (`npm run invite`); like main.ts, the only file with side effects. */
// What the commands write (backups, exports, the outbox) is readable by this user only.
createPrivateFiles();
const writer = (stream: NodeJS.WriteStream) => (line: string) => stream.write(`${line}\n`);
const [commandName] = process.argv.slice(2);
// An archive's export or import is minutes of work beside a running server: it yields the CPU to
// the server's requests (issue #37: the server answers within 100 ms while a lifetime is imported).
if (commandName === "export" || commandName === "import") runBelowNormalPriority();

runCli(process.argv.slice(2), { env: process.env, out: writer(process.stdout), err: writer(process.stderr) }).then(
  // exitCode rather than exit(): pending output is flushed before the process ends.
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // inspect() shows the cause too, such as the connection error behind a failed migration.
    process.stderr.write(`The command failed: ${inspect(error)}\n`);
    process.exitCode = 1;
  },
);
