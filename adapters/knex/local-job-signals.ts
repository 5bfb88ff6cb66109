import type { Knex } from "knex";

const listeners = new WeakMap<Knex, Set<() => void>>();

/**
 * Jobs enqueued through this process's knex wake this process's workers at once. On Postgres
 * LISTEN/NOTIFY does that across processes; on SQLite this is the only push there is (a worker
 * in another process polls), so a server with its in-process worker does not wait a poll
 * interval for every job it makes.
 */
export const localJobSignals = {
  listen(knex: Knex, wake: () => void): () => void {
    let set = listeners.get(knex);
    if (!set) listeners.set(knex, (set = new Set()));
    set.add(wake);
    return () => set.delete(wake);
  },
  notify(knex: Knex): void {
    for (const wake of listeners.get(knex) ?? []) wake();
  },
};
