import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberOperationRepository } from "./ports.js";
import { toOperationView, type OperationView } from "./view.js";

export const OPERATION_NOT_FOUND = () => notFound("Subscriber operation not found");

/** One operation of the actor's company, with its progress. */
export class GetOperation {
  constructor(private readonly operations: SubscriberOperationRepository) {}

  execute = async (actor: Actor, operationId: string): Promise<Result<OperationView>> => {
    const operation = await this.operations.find(actor.companyId, operationId);
    return operation ? ok(toOperationView(operation)) : fail(OPERATION_NOT_FOUND());
  };
}
