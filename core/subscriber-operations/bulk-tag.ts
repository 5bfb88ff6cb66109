import { startedCount, triggerAfterWrite, type Automations } from "../ports/automations.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { decode, Email } from "../shared/codecs.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeTags } from "../subscribers/save-contact.js";
import type { BulkAddTagsCommand, BulkRemoveTagsCommand } from "./commands.js";
import type { BulkTagStore, IdentifiedContact } from "./ports.js";
import type { BulkTagFailure, BulkTagOutcome } from "./view.js";

/** Contacts one synchronous request may name (compat-reference §4); more go through an operation. */
export const MAX_BULK_CONTACTS = 500;
/** Failures listed in the response; `failed` counts them all. */
export const MAX_BULK_FAILURES = 50;
/** Tags one request may add or remove. */
export const MAX_BULK_TAGS = 100;

const distinct = (values: readonly string[]): string[] => [...new Set(values)];

/**
 * Adds or removes tags on up to 500 contacts named by email, externalId or subscriber ID, in a
 * few queries whatever the count. Unknown contacts are reported, never created. With
 * `triggerAutomations`, the contacts given a tag they lacked start its tag_added sequences
 * (`triggeredAutomations`: at least one did).
 */
export class BulkTag {
  constructor(
    private readonly store: BulkTagStore,
    private readonly automations: Automations,
    private readonly clock: Clock,
  ) {}

  add = (actor: Actor, command: BulkAddTagsCommand): Promise<Result<BulkTagOutcome>> => this.execute(actor, command, "add");

  remove = (actor: Actor, command: BulkRemoveTagsCommand): Promise<Result<BulkTagOutcome>> => this.execute(actor, command, "remove");

  private async execute(actor: Actor, command: BulkAddTagsCommand | BulkRemoveTagsCommand, mode: "add" | "remove"): Promise<Result<BulkTagOutcome>> {
    if (command.tags.length === 0) return fail(badRequest("Provide at least one tag in tags"));
    if (command.tags.length > MAX_BULK_TAGS) return fail(badRequest(`At most ${MAX_BULK_TAGS} tags can be changed per request (got ${command.tags.length})`));
    const tags = normalizeTags(command.tags);
    if (tags._tag === "Left") return tags;

    const given = { emails: command.emails ?? [], externalIds: command.externalIds ?? [], subscriberIds: command.subscriberIds ?? [] };
    const requested = given.emails.length + given.externalIds.length + given.subscriberIds.length;
    if (requested === 0) return fail(badRequest("Provide at least one contact in emails, externalIds or subscriberIds"));
    if (requested > MAX_BULK_CONTACTS) {
      return fail(
        badRequest(
          `At most ${MAX_BULK_CONTACTS} contacts can be tagged per request (got ${requested}); start a subscriber operation (POST /api/v1/subscribers/operations) for more`,
        ),
      );
    }

    const failures: BulkTagFailure[] = [];
    const emails: string[] = [];
    for (const raw of given.emails) {
      const email = decode(Email, raw);
      if (email._tag === "Left") failures.push({ email: raw, error: "Invalid email address" });
      else emails.push(email.right);
    }
    const identifiers = { emails: distinct(emails), externalIds: distinct(given.externalIds), subscriberIds: distinct(given.subscriberIds) };
    const found = await this.store.findContacts(actor.companyId, identifiers);
    const foundEmails = new Set(found.map((contact: IdentifiedContact) => contact.email));
    const foundExternalIds = new Set(found.map((contact: IdentifiedContact) => contact.externalId));
    const matched = new Set(found.map((contact: IdentifiedContact) => contact.id));
    const notFound = {
      emails: identifiers.emails.filter((email) => !foundEmails.has(email)),
      externalIds: identifiers.externalIds.filter((id) => !foundExternalIds.has(id)),
      subscriberIds: identifiers.subscriberIds.filter((id) => !matched.has(id)),
    };

    const now = this.clock.now();
    const contacts = [...matched];
    const change =
      contacts.length === 0
        ? { changed: [], missing: [] }
        : mode === "add"
          ? await this.store.addTags(actor.companyId, contacts, tags.right, now)
          : await this.store.removeTags(actor.companyId, contacts, tags.right, now);
    // A contact deleted between the look-up and the change cannot be tagged.
    for (const subscriberId of change.missing) failures.push({ subscriberId, error: "Subscriber not found" });
    const triggered =
      mode === "add" && "triggerAutomations" in command && command.triggerAutomations === true
        ? await triggerAfterWrite(this.automations, actor.companyId, change.changed, { trigger: "tag_added", tagNames: tags.right })
        : null;

    return ok({
      tags: tags.right,
      requested,
      matched: contacts.length,
      updated: change.changed.length,
      unchanged: contacts.length - change.changed.length - change.missing.length,
      failed: failures.length,
      notFound,
      failures: failures.slice(0, MAX_BULK_FAILURES),
      triggeredAutomations: triggered !== null && startedCount(triggered.started) > 0,
    });
  }
}
