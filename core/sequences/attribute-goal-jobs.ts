import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";
import { IsoDate } from "../shared/codecs.js";
import type { Subscriber } from "../subscribers/model.js";
import { fieldValue } from "./contact-conditions.js";

/** A contact's watched fields that a save changed: by field path, [before, after]. */
export type WatchedChanges = Record<string, [unknown, unknown]>;

/** The watched fields (paths as attribute_change goals name them) whose value differs between the two saves. */
export function watchedChanges(before: Subscriber, after: Subscriber, paths: readonly string[]): WatchedChanges {
  const changes: WatchedChanges = {};
  for (const path of paths) {
    const [was, is] = [fieldValue(before, path), fieldValue(after, path)];
    if (JSON.stringify(was ?? null) !== JSON.stringify(is ?? null)) changes[path] = [was ?? null, is ?? null];
  }
  return changes;
}

/**
 * Feeds attribute_change goals from a background write (an import chunk, a warehouse sync):
 * queued in the write's own transaction with the watched values it changed, so the conversions
 * are recorded even when the worker dies right after the commit.
 */
export const RecordAttributeGoalsJob = defineJob({
  type: "sequences.record_attribute_goals",
  company: "required",
  payload: t.type({
    at: IsoDate,
    changes: t.array(t.type({ subscriberId: t.string, fields: t.record(t.string, t.tuple([t.unknown, t.unknown])) })),
  }),
  maxAttempts: 10,
});

export const recordAttributeGoalsJob = (companyId: string, changes: Array<{ subscriberId: string; fields: WatchedChanges }>, at: Date): JobRequest =>
  RecordAttributeGoalsJob.request({ at, changes }, { companyId });
