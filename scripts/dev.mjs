// `npm run dev`: the API server (tsx watch, port 8080) and the Vite dev server (port 5173, which
// proxies /api, /auth, /storage and /rest to the API server), side by side, each line prefixed.
import { spawn } from "node:child_process";

const processes = [
  { name: "server", args: ["run", "dev", "--workspace", "@memory-box/server"] },
  { name: "web", args: ["run", "dev", "--workspace", "@memory-box/web"] },
].map(({ name, args }) => {
  const child = spawn("npm", args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "1" } });
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream.on("data", (chunk) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  child.on("exit", (code) => {
    console.log(`[${name}] exited with ${code}`);
    stopAll(code ?? 1);
  });
  return child;
});

function stopAll(code) {
  for (const child of processes) if (child.exitCode === null) child.kill("SIGTERM");
  process.exitCode = code;
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));
