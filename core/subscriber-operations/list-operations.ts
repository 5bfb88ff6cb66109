import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SubscriberOperationRepository } from "./ports.js";
import { toOperationView, type OperationView } from "./view.js";

/** Operations listed (compat-reference §4: the 20 most recent). */
export const LISTED_OPERATIONS = 20;

/** The company's most recent operations, newest first. */
export class ListOperations {
  constructor(private readonly operations: SubscriberOperationRepository) {}

  execute = async (actor: Actor): Promise<Result<OperationView[]>> =>
    ok((await this.operations.listRecent(actor.companyId, LISTED_OPERATIONS)).map(toOperationView));
}
