#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, InvalidArgumentError } from "commander";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { startRuntime } from "../runtime.js";
import { createWorker } from "../worker/create-worker.js";
import { registerAdminCommands } from "./admin.js";
import { CliError } from "./cli-error.js";
import { registerDoctorCommand } from "./doctor.js";
import { registerImportSubscribersCommand } from "./import-subscribers.js";
import { serve } from "./serve.js";
import { onShutdown } from "./shutdown.js";
import { runtimeOptions } from "./runtime-options.js";

const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };

const integer = (min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
  return n;
};

const program = new Command("lifecycle")
  .description("Lifecycle email service: HTTP API, background worker and operator commands")
  .version(version)
  .showHelpAfterError();

program
  .command("serve")
  .description("serve the HTTP API (and run the worker in-process unless --no-worker)")
  .option("--port <n>", "listen port (overrides PORT)", integer(0, 65535))
  .option("--host <host>", "listen address (overrides HOST)")
  .option("--database <url>", "database URL (overrides DATABASE_URL)")
  .option("--no-worker", "do not run background jobs in this process")
  .action((flags: { port?: number; host?: string; database?: string; worker: boolean }) =>
    serve({ port: flags.port, host: flags.host, databaseUrl: flags.database, worker: flags.worker }),
  );

program
  .command("worker")
  .description("run the background worker alone (several may share one Postgres)")
  .option("--database <url>", "database URL (overrides DATABASE_URL)")
  .option("--concurrency <n>", "jobs run at once", integer(1, 256), 1)
  .action(async (flags: { database?: string; concurrency: number }) => {
    const config = loadConfig(process.env, { databaseUrl: flags.database });
    const logger = createLogger(config.logLevel);
    const runtime = await startRuntime(runtimeOptions(config, logger));
    const worker = createWorker(runtime.container, { concurrency: flags.concurrency });
    // Before start() announces readiness: until a listener exists, SIGTERM kills outright.
    onShutdown(logger, async () => {
      await worker.stop();
      await runtime.close();
    });
    await worker.start();
  });

program
  .command("migrate")
  .description("bring the database schema up to date and exit")
  .option("--database <url>", "database URL (overrides DATABASE_URL)")
  .action(async (flags: { database?: string }) => {
    const config = loadConfig(process.env, { databaseUrl: flags.database });
    const runtime = await startRuntime({ ...runtimeOptions(config, createLogger(config.logLevel)), preloadRenderer: false });
    await runtime.close();
    process.stdout.write("database schema is up to date\n");
  });

registerAdminCommands(program);
registerImportSubscribersCommand(program);
registerDoctorCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${error instanceof CliError ? message : message.split("\n")[0]}\n`);
  process.exit(1);
});
