import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateEmailComponentCommand } from "./commands.js";
import { duplicateComponentName } from "./component-rules.js";
import type { EmailComponent } from "./model.js";
import type { EmailComponentRepository } from "./ports.js";
import { NO_BLOCKS } from "./template-content.js";
import { toEmailComponentView, type EmailComponentView } from "./view.js";

/** POST /email-components: a named group of blocks (section by default), version 1. */
export class CreateEmailComponent {
  constructor(
    private readonly components: EmailComponentRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateEmailComponentCommand): Promise<Result<EmailComponentView>> => {
    if (input.blocks.length === 0) return fail(NO_BLOCKS);
    const now = this.clock.now();
    const component: EmailComponent = {
      id: this.ids.next("ecmp"),
      companyId: actor.companyId,
      name: input.name,
      description: input.description ?? null,
      blocks: input.blocks,
      componentType: input.componentType ?? "section",
      defaultSlot: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.components.insert(component)) === "duplicate_name") return fail(duplicateComponentName(input.name));
    return ok(toEmailComponentView(component));
  };
}
