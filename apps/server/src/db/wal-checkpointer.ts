import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the background connection copies the write-ahead log into the database file. */
const defaultIntervalMs = 500;

// Runs in the worker: its own connection to the same file, checkpointing on a timer. PASSIVE
// never waits for, or blocks, the server's connection: it copies what no reader still needs.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const checkpoint = () => db.pragma("wal_checkpoint(PASSIVE)");
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints an SQLite database's write-ahead log from a worker thread. SQLite's automatic
 * checkpoint runs inside whichever commit fills the log, on the connection that made it: with a
 * synchronous driver that is the event loop, which then stalls every request for the copy and
 * its two fsyncs (a few milliseconds, every thousand pages written). The server's connection turns
 * automatic checkpoints off while this runs and back on if the worker fails.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private stopping = false;

  constructor(file: string, onFailure: (error: Error) => void, intervalMs = defaultIntervalMs) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(workerSource, { eval: true, workerData: { file, driver, intervalMs } });
    this.worker.unref();
    // A crash is reported once: by its error, or by the exit when there was none.
    let reported = false;
    const fail = (error: Error) => {
      if (this.stopping || reported) return;
      reported = true;
      onFailure(error);
    };
    this.worker.on("error", fail);
    this.exited = new Promise((resolve) => {
      this.worker.once("exit", (code) => {
        fail(new Error(`the checkpoint worker exited with code ${code}`));
        resolve();
      });
    });
  }

  /** A last checkpoint, then the worker's connection is closed. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.worker.postMessage("stop");
    await this.exited;
  }
}
