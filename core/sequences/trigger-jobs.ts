import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { AutomationOccurrence } from "../ports/automations.js";
import type { JobRequest } from "../ports/job-queue.js";

/** The occurrences a job carries (custom events reach the entry point as they are recorded). */
const QueuedOccurrence = t.union([
  t.type({ trigger: t.literal("contact_added"), created: t.boolean, listIds: t.array(t.string) }),
  t.type({ trigger: t.literal("tag_added"), tagNames: t.array(t.string) }),
]);
type QueuedOccurrence = t.TypeOf<typeof QueuedOccurrence>;

/**
 * Feeds the trigger entry point from a background write (an import chunk, a tagging operation):
 * queued in the write's own transaction, so the contacts it wrote always reach their sequences,
 * even when the worker dies right after the commit.
 */
export const StartSequencesJob = defineJob({
  type: "sequences.start",
  company: "required",
  payload: t.type({ subscriberIds: t.array(t.string), occurrence: QueuedOccurrence }),
  maxAttempts: 10,
});

export const startSequencesJob = (
  companyId: string,
  subscriberIds: readonly string[],
  occurrence: Extract<AutomationOccurrence, { readonly trigger: QueuedOccurrence["trigger"] }>,
): JobRequest =>
  StartSequencesJob.request(
    {
      subscriberIds: [...subscriberIds],
      occurrence:
        occurrence.trigger === "contact_added"
          ? { trigger: "contact_added", created: occurrence.created, listIds: [...occurrence.listIds] }
          : { trigger: "tag_added", tagNames: [...occurrence.tagNames] },
    },
    { companyId },
  );
