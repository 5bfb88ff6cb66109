import { token } from "../shared/token.js";
import type { Subscriber } from "./model.js";

/**
 * Told of every contact a request created, after it is stored: the sequences module starts the
 * `contact_added` sequences through it. Resolves to the failures worth a warning (none: empty).
 */
export interface ContactAdded {
  notify(contact: Subscriber): Promise<string[]>;
}
export const ContactAdded = token<ContactAdded>("lifecycle.ContactAdded");
