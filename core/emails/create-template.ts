import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { CreateTemplateCommand } from "./commands.js";
import type { Template } from "./model.js";
import type { TemplateRepository } from "./ports.js";
import { newContentFrom, uniqueLabels } from "./template-content.js";
import { toTemplateView, type TemplateView } from "./view.js";

/** POST /templates: name, subject and exactly one of html and blocks (a prompt is refused: no AI here). */
export class CreateTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateTemplateCommand): Promise<Result<TemplateView>> => {
    const content = newContentFrom(input);
    if (content._tag === "Left") return content;
    const now = this.clock.now();
    const template: Template = {
      id: this.ids.next("tpl"),
      companyId: actor.companyId,
      name: input.name,
      ...content.right,
      labels: uniqueLabels(input.labels ?? []),
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.templates.insert(template);
    return ok(toTemplateView(template));
  };
}
