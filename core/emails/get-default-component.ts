import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { noDefaultComponent, parseSlot } from "./component-rules.js";
import type { EmailComponentRepository } from "./ports.js";
import { toEmailComponentView, type EmailComponentView } from "./view.js";

/** GET /email-components/defaults/{slot} (spec): only `footer`; 404 when none is set. */
export class GetDefaultComponent {
  constructor(private readonly components: EmailComponentRepository) {}

  execute = async (actor: Actor, slotName: string): Promise<Result<EmailComponentView>> => {
    const slot = parseSlot(slotName);
    if (slot._tag === "Left") return slot;
    const component = await this.components.findDefault(actor.companyId, slot.right);
    return component ? ok(toEmailComponentView(component)) : fail(noDefaultComponent(slot.right));
  };
}
