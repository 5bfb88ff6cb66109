import type { Knex } from "knex";
import pg from "pg";
import { isPostgres } from "./connection.js";
import { JOBS_CHANNEL } from "./knex-job-queue.js";
import { localJobSignals } from "./local-job-signals.js";

export type StopListening = () => Promise<void>;

/**
 * Wakes idle workers the moment a job is enqueued: on Postgres by LISTEN on a connection of its
 * own (jobs of every process), on SQLite for jobs this process enqueues. Otherwise (another
 * SQLite process, or the connection is down) workers fall back to polling.
 */
export async function listenForJobs(knex: Knex, wake: () => void, onError: (error: unknown) => void): Promise<StopListening> {
  if (!isPostgres(knex)) {
    const stop = localJobSignals.listen(knex, wake);
    return async () => stop();
  }
  const connection = knex.client.config.connection as { connectionString: string };
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: connection.connectionString });
    next.on("notification", () => wake());
    next.on("error", (error) => {
      onError(error);
      next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!stopped) retry = setTimeout(() => void connect().catch(onError), 1_000);
    });
    try {
      await next.connect();
      await next.query(`listen ${JOBS_CHANNEL}`);
      client = next;
      wake(); // jobs may have arrived while we were not listening
    } catch (error) {
      onError(error);
      await next.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect().catch(onError), 1_000);
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
