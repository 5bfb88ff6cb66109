import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SuppressionRepository } from "./ports.js";
import { suppressionView, type SuppressionView } from "./view.js";

export class GetSuppression {
  constructor(private readonly suppressions: SuppressionRepository) {}

  execute = async (actor: Actor, email: string): Promise<Result<SuppressionView>> => {
    const suppression = await this.suppressions.find(actor.companyId, email.toLowerCase());
    return suppression ? ok(suppressionView(suppression)) : fail(notFound("Suppression not found"));
  };
}
