import type { ContactEvent } from "../events/contact-events.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Clock } from "../ports/clock.js";
import type { SequenceActivityRepository } from "./activity-ports.js";
import { advanceEnrollmentsJob } from "./engine-jobs.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { awaitsEvent } from "./wait-for-event.js";

/**
 * A recorded event ends the waits for it at once: each of the contact's enrollments waiting at a
 * `logic_wait_for_event` node for this event (its property filters passed) becomes due now, and
 * the company's engine run is queued. History (events over an hour old) wakes nothing.
 */
export class WakeWaitingEnrollments {
  constructor(
    private readonly activity: SequenceActivityRepository,
    private readonly sequences: SequenceRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  /** The listener of recorded custom events (ContactEvents). Resolves to the number of enrollments woken. */
  onEvent = async (event: ContactEvent): Promise<number> => {
    if (event.historical) return 0;
    const waiting = await this.activity.waiting(event.companyId, event.subscriberId);
    if (waiting.length === 0) return 0;
    const now = this.clock.now();
    const sequences = new Map<string, Sequence | null>();
    let woken = 0;
    for (const enrollment of waiting) {
      if (!sequences.has(enrollment.sequenceId)) sequences.set(enrollment.sequenceId, await this.sequences.find(event.companyId, enrollment.sequenceId));
      const node = sequences.get(enrollment.sequenceId)?.graph.nodes.find((candidate) => candidate.id === enrollment.currentNodeId);
      if (!node || !awaitsEvent(node, event.name, event.properties)) continue;
      if (await this.activity.wake(enrollment, node.id, now)) woken += 1;
    }
    if (woken > 0) await this.jobs.enqueue(advanceEnrollmentsJob(event.companyId));
    return woken;
  };
}
