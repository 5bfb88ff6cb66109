import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SetDefaultComponentCommand } from "./commands.js";
import { duplicateComponentName, proposedDefault } from "./component-rules.js";
import { COMPONENT_NOT_FOUND, sameBlocks, type DefaultSlot, type EmailComponent } from "./model.js";
import type { EmailComponentRepository } from "./ports.js";
import { toEmailComponentView, type EmailComponentView } from "./view.js";

export const DEFAULT_FOOTER_NAME = "Default footer";

/** How the default applies (compat: `application`). */
export interface DefaultApplication {
  readonly slot: DefaultSlot;
  /** True when this call created the component, false when it edited the existing default. */
  readonly created: boolean;
  /** Emails rendered from now on use it; emails with a footer block of their own keep theirs. */
  readonly appliesTo: "emails_without_own_footer";
  readonly unsubscribeLink: "always_included";
}

export interface SetDefaultResult {
  readonly component: EmailComponentView;
  readonly application: DefaultApplication;
  readonly warnings: readonly string[];
}

/**
 * PUT /email-components/defaults/{slot}: edits the current default footer (its version goes up
 * when the blocks change) or creates one. Its footer blocks keep the unsubscribe link enabled.
 */
export class SetDefaultComponent {
  constructor(
    private readonly components: EmailComponentRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, slotName: string, input: SetDefaultComponentCommand): Promise<Result<SetDefaultResult>> => {
    const proposed = proposedDefault(slotName, input.blocks);
    if (proposed._tag === "Left") return proposed;
    const { slot, blocks, warnings } = proposed.right;
    const now = this.clock.now();
    const current = await this.components.findDefault(actor.companyId, slot);

    if (current) {
      const updated: EmailComponent = {
        ...current,
        name: input.name ?? current.name,
        description: input.description === undefined ? current.description : input.description,
        blocks,
        version: sameBlocks(blocks, current.blocks) ? current.version : current.version + 1,
        updatedAt: now,
      };
      const written = await this.components.update(updated);
      if (written === "not_found") return fail(COMPONENT_NOT_FOUND);
      if (written === "duplicate_name") return fail(duplicateComponentName(updated.name));
      return ok({ component: toEmailComponentView(updated), application: application(slot, false), warnings });
    }

    const created: EmailComponent = {
      id: this.ids.next("ecmp"),
      companyId: actor.companyId,
      name: input.name ?? DEFAULT_FOOTER_NAME,
      description: input.description ?? null,
      blocks,
      componentType: "footer",
      defaultSlot: slot,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.components.insert(created)) === "duplicate_name") return fail(duplicateComponentName(created.name));
    return ok({ component: toEmailComponentView(created), application: application(slot, true), warnings });
  };
}

const application = (slot: DefaultSlot, created: boolean): DefaultApplication => ({
  slot,
  created,
  appliesTo: "emails_without_own_footer",
  unsubscribeLink: "always_included",
});
