import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateEmailComponentCommand } from "./commands.js";
import { DEFAULT_FOOTER_TYPE, duplicateComponentName, UNSUBSCRIBE_KEPT_WARNING } from "./component-rules.js";
import { COMPONENT_NOT_FOUND, keepUnsubscribeEnabled, sameBlocks, type EmailComponent } from "./model.js";
import type { EmailComponentRepository } from "./ports.js";
import { NO_BLOCKS } from "./template-content.js";
import { NO_SUPPORTED_FIELDS } from "./update-template.js";
import { toEmailComponentView, type EmailComponentView } from "./view.js";

export interface UpdatedEmailComponent {
  readonly component: EmailComponentView;
  /** Non-fatal notes (compat: `warnings`), e.g. an unsubscribe link kept on. */
  readonly warnings: readonly string[];
}

/**
 * PATCH /email-components/{componentId} (spec): name (unique), description ("" clears),
 * blocks (replace all, at least one), componentType; omitted fields are kept. The version goes
 * up when the blocks change. The default footer keeps its unsubscribe link enabled.
 */
export class UpdateEmailComponent {
  constructor(
    private readonly components: EmailComponentRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, componentId: string, input: UpdateEmailComponentCommand): Promise<Result<UpdatedEmailComponent>> => {
    const given = [input.name, input.description, input.blocks, input.componentType].some((field) => field !== undefined);
    if (!given) return fail(NO_SUPPORTED_FIELDS);
    if (input.blocks?.length === 0) return fail(NO_BLOCKS);
    const component = await this.components.find(actor.companyId, componentId);
    if (!component) return fail(COMPONENT_NOT_FOUND);
    const isDefaultFooter = component.defaultSlot === "footer";
    if (isDefaultFooter && input.componentType === "section") return fail(DEFAULT_FOOTER_TYPE);

    const warnings: string[] = [];
    let blocks = input.blocks ?? component.blocks;
    if (isDefaultFooter && input.blocks) {
      const kept = keepUnsubscribeEnabled(input.blocks);
      blocks = kept.blocks;
      if (kept.overridden) warnings.push(UNSUBSCRIBE_KEPT_WARNING);
    }
    const updated: EmailComponent = {
      ...component,
      name: input.name ?? component.name,
      description: input.description === undefined ? component.description : input.description,
      blocks,
      componentType: input.componentType ?? component.componentType,
      version: sameBlocks(blocks, component.blocks) ? component.version : component.version + 1,
      updatedAt: this.clock.now(),
    };
    const written = await this.components.update(updated);
    if (written === "not_found") return fail(COMPONENT_NOT_FOUND);
    if (written === "duplicate_name") return fail(duplicateComponentName(updated.name));
    return ok({ component: toEmailComponentView(updated), warnings });
  };
}
