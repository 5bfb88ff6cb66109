import { Locale } from "../emails/commands.js";
import { DEFAULT_LOCALE } from "../emails/localization.js";
import type { Subscriber } from "../subscribers/model.js";

/** The custom attribute that holds a contact's preferred locale (`es`, `pt-BR`). */
export const LOCALE_ATTRIBUTE = "locale";

/**
 * The locale a transactional send to one recipient is written in: the request's `locale`, else
 * the contact's `locale` attribute when it is a valid locale, else none (the default content).
 * `default` in the request means the default content, whatever the contact's attribute says.
 */
export function recipientLocale(requested: string | undefined, contact: Pick<Subscriber, "customAttributes"> | null): string | undefined {
  if (requested !== undefined) return requested === DEFAULT_LOCALE ? undefined : requested;
  const attribute = contact?.customAttributes[LOCALE_ATTRIBUTE];
  if (typeof attribute !== "string") return undefined;
  const decoded = Locale.decode(attribute);
  return decoded._tag === "Right" ? decoded.right : undefined;
}
