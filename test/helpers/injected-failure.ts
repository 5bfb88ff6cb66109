import type { Knex } from "knex";
import { isPostgres } from "../../adapters/knex/connection.js";
import { ASK_IMPORTED_CONTACTS_JOB } from "../../core/opt-in/ask-imported-contacts.js";

/**
 * Makes every insert into `table` (of a job of `jobType`, the opt-in type unless given, for `jobs`)
 * fail, as a crash or a lost connection would at that point of the transaction that writes it;
 * the returned function undoes it.
 */
export async function failInsertsInto(
  knex: Knex,
  table: "opt_ins" | "jobs" | "sequence_enrollment_steps",
  jobType = ASK_IMPORTED_CONTACTS_JOB,
): Promise<() => Promise<void>> {
  const only = table === "jobs" ? `new.type = '${jobType}'` : "true";
  if (isPostgres(knex)) {
    await knex.raw(`create function injected_failure() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`);
    await knex.raw(`create trigger injected_failure before insert on ${table} for each row when (${only}) execute function injected_failure()`);
    return async () => {
      await knex.raw(`drop trigger injected_failure on ${table}`);
      await knex.raw("drop function injected_failure()");
    };
  }
  await knex.raw(`create trigger injected_failure before insert on ${table} when ${only} begin select raise(abort, 'injected failure'); end`);
  return async () => {
    await knex.raw("drop trigger injected_failure");
  };
}

/** Makes every update of `table` fail, as a crash would after the work it records; the returned function undoes it. */
export async function failUpdatesOf(knex: Knex, table: "sequence_test_runs"): Promise<() => Promise<void>> {
  if (isPostgres(knex)) {
    await knex.raw(`create function injected_update_failure() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`);
    await knex.raw(`create trigger injected_update_failure before update on ${table} for each row execute function injected_update_failure()`);
    return async () => {
      await knex.raw(`drop trigger injected_update_failure on ${table}`);
      await knex.raw("drop function injected_update_failure()");
    };
  }
  await knex.raw(`create trigger injected_update_failure before update on ${table} begin select raise(abort, 'injected failure'); end`);
  return async () => {
    await knex.raw("drop trigger injected_update_failure");
  };
}
