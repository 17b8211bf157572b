import fs from "node:fs";
import os from "node:os";

/**
 * Lowers this process's CPU priority (nice 10), so the work it does gives way to the server's on a
 * shared machine, and takes whatever the server leaves. On Linux a priority is each thread's, and
 * threads inherit it when they start: every thread running now is lowered (from /proc/self/task),
 * those started later (libuv's pool, the image library's) inherit it. Best effort: a system that
 * refuses leaves it as it was.
 */
export function runBelowNormalPriority(): void {
  const priority = os.constants.priority.PRIORITY_BELOW_NORMAL;
  let threads: number[] = [];
  try {
    threads = fs.readdirSync("/proc/self/task").map(Number);
  } catch {
    // Not Linux: the process's priority is all there is.
  }
  for (const thread of threads.length > 0 ? threads : [0]) {
    try {
      os.setPriority(thread, priority);
    } catch {
      // Refused (or the thread has ended): the work runs at the usual priority.
    }
  }
}
