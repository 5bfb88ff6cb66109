import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const root = fileURLToPath(new URL("../../../", import.meta.url));
/** How long a stopped server may take to drain and exit: far beyond any graceful shutdown here. */
const STOP_WITHIN_MS = 60_000;
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { bin: { lifecycle: string } };
/** The installed binary, as package.json declares it. */
export const BINARY = `${root}${manifest.bin.lifecycle}`;

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Environment of a child: no inherited DATABASE_URL and friends, quiet logs unless asked, and no
 * shedding on event-loop delay unless asked (a machine busy with other tests delays every loop).
 */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  for (const name of [
    "DATABASE_URL",
    "PORT",
    "HOST",
    "BASE_URL",
    "SECRET_KEY",
    "MAIL_URL",
    "REDIS_URL",
    "LOG_LEVEL",
    "TRUST_PROXY",
    "SHED_EVENT_LOOP_DELAY_MS",
  ])
    delete clean[name];
  for (const name of Object.keys(clean)) if (name.startsWith("RETENTION_")) delete clean[name];
  return { ...clean, LOG_LEVEL: "warn", SHED_EVENT_LOOP_DELAY_MS: "0", ...env };
}

export async function runCli(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  const child = spawn(process.execPath, [BINARY, ...args], { cwd: options.cwd, env: childEnv(options.env ?? {}), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

export interface RunningServer {
  readonly child: ChildProcess;
  readonly url: string;
  readonly firstLine: string;
  /** What the command wrote to stderr so far (its logs). */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a long-running command and waits for its first stdout line (`listening on ...`), or,
 * with `readyOn: "stderr"`, for a log line matching `ready`.
 */
export async function startCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; readyOn?: "stdout" | "stderr"; ready?: RegExp },
): Promise<RunningServer> {
  const child = spawn(process.execPath, [BINARY, ...args], { cwd: options.cwd, env: childEnv(options.env ?? {}), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: options.readyOn === "stderr" ? child.stderr : child.stdout });
  const ready = options.ready ?? /./;
  const firstLine = await new Promise<string>((resolve, reject) => {
    // Generous: a CI machine busy with other test files can take many seconds to start a process.
    // A child that never got ready is killed: left running, it would load every test after it.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`not ready within 60 s; stderr: ${stderr}`));
    }, 60_000);
    lines.on("line", (line) => {
      if (!ready.test(line)) return;
      clearTimeout(timer);
      resolve(line);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing; stderr: ${stderr}`));
    });
  });
  const url = /^listening on (http:\/\/\S+)$/.exec(firstLine)?.[1] ?? "";
  return {
    child,
    url,
    firstLine,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      child.kill("SIGTERM");
      // A server that does not shut down is a failure to see, not a test that hangs until its timeout.
      const late = setTimeout(() => child.kill("SIGKILL"), STOP_WITHIN_MS);
      const [code, signal] = await exited;
      clearTimeout(late);
      if (code === null)
        throw new Error(`killed by ${signal}${signal === "SIGKILL" ? ` (no exit within ${STOP_WITHIN_MS} ms of SIGTERM)` : ""}; stderr: ${stderr}`);
      return code;
    },
  };
}
