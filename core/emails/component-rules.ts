import { badRequest, conflict, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { EmailBlock } from "./blocks.js";
import { DEFAULT_SLOTS, keepUnsubscribeEnabled, type DefaultSlot } from "./model.js";
import { NO_BLOCKS } from "./template-content.js";

/** Rules and messages shared by the email-component use cases. */

export const duplicateComponentName = (name: string) => conflict(`An email component named '${name}' already exists`);

export const UNSUBSCRIBE_KEPT_WARNING = "showUnsubscribe stays true on the default footer: its unsubscribe link cannot be turned off";

export const DEFAULT_FOOTER_TYPE = badRequest("The default footer must keep componentType footer; set another default footer first");

export const noDefaultComponent = (slot: DefaultSlot) => notFound(`No default ${slot} component is set`);

export function parseSlot(slot: string): Result<DefaultSlot> {
  return (DEFAULT_SLOTS as readonly string[]).includes(slot)
    ? ok(slot as DefaultSlot)
    : fail(badRequest(`Unsupported slot '${slot}': supported slots are ${DEFAULT_SLOTS.join(", ")}`));
}

/** The blocks a default component of `slotName` would hold: a supported slot, at least one block, the unsubscribe link kept on. */
export function proposedDefault(slotName: string, input: readonly EmailBlock[]): Result<{ slot: DefaultSlot; blocks: EmailBlock[]; warnings: string[] }> {
  const slot = parseSlot(slotName);
  if (slot._tag === "Left") return slot;
  if (input.length === 0) return fail(NO_BLOCKS);
  const { blocks, overridden } = keepUnsubscribeEnabled(input);
  return ok({ slot: slot.right, blocks, warnings: overridden ? [UNSUBSCRIBE_KEPT_WARNING] : [] });
}
