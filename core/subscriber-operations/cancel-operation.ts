import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { OPERATION_NOT_FOUND } from "./get-operation.js";
import { transition } from "./model.js";
import type { SubscriberOperationRepository } from "./ports.js";
import { toOperationView, type OperationView } from "./view.js";

/**
 * Cancels a queued or running operation at once: contacts already processed keep their tags,
 * and the job stops before its next batch. An ended operation cannot be cancelled (400).
 */
export class CancelOperation {
  constructor(
    private readonly operations: SubscriberOperationRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, operationId: string): Promise<Result<OperationView>> => {
    // A step may move the operation between our read and our write: read again and retry.
    for (let attempt = 0; attempt < 5; attempt++) {
      const operation = await this.operations.find(actor.companyId, operationId);
      if (!operation) return fail(OPERATION_NOT_FOUND());
      const cancelled = transition(operation, { type: "cancel" }, this.clock.now());
      if (cancelled._tag === "Left") return cancelled;
      if (await this.operations.saveStatus(cancelled.right, operation.status)) return ok(toOperationView(cancelled.right));
    }
    throw new Error(`operation ${operationId} kept changing while being cancelled`);
  };
}
