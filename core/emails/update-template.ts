import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateTemplateCommand } from "./commands.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateRepository } from "./ports.js";
import { bodyFrom, PROMPT_UNAVAILABLE, uniqueLabels } from "./template-content.js";
import { toTemplateView, type TemplateView } from "./view.js";

export const NO_SUPPORTED_FIELDS = badRequest("No supported fields provided");

/**
 * PUT /templates/{templateId}: changes the given fields; html or blocks replaces the body (the
 * other kind is dropped), previewText null clears it.
 */
export class UpdateTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, templateId: string, input: UpdateTemplateCommand): Promise<Result<TemplateView>> => {
    if (input.prompt !== undefined) return fail(PROMPT_UNAVAILABLE);
    const given = [input.name, input.subject, input.previewText, input.html, input.blocks, input.labels].some((field) => field !== undefined);
    if (!given) return fail(NO_SUPPORTED_FIELDS);
    const body = bodyFrom(input);
    if (body._tag === "Left") return body;
    const template = await this.templates.find(actor.companyId, templateId);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    const updated = {
      ...template,
      name: input.name ?? template.name,
      subject: input.subject ?? template.subject,
      previewText: input.previewText === undefined ? template.previewText : input.previewText,
      body: body.right ?? template.body,
      labels: input.labels ? uniqueLabels(input.labels) : template.labels,
      updatedAt: this.clock.now(),
    };
    if (!(await this.templates.update(updated))) return fail(TEMPLATE_NOT_FOUND);
    return ok(toTemplateView(updated));
  };
}
