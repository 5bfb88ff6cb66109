import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import type { ExecutionContext } from "ava";
import type { TestDatabase } from "./databases.js";

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** What the process wrote to stderr (its logs). */
  readonly logs: () => string;
  /** What it wrote to stdout (its `ready` line and test markers). */
  readonly output: () => string;
}

/** A compiled test worker script in a process of its own on `database`, killed after the test; resolves once it is ready. */
export async function startWorkerProcess(
  t: ExecutionContext,
  script: string,
  database: TestDatabase,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...database.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  t.teardown(() => child.kill("SIGKILL"));
  let logs = "";
  let output = "";
  child.stderr.on("data", (chunk) => (logs += chunk));
  child.stdout.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${logs}`)));
  });
  return { child, logs: () => logs, output: () => output };
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
