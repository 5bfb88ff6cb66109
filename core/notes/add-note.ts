import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { identifySubscriber, type SubscriberRef } from "../subscribers/identify.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { MAX_NOTE_BODY } from "./model.js";
import type { NoteRepository } from "./ports.js";
import { toNoteView, type NoteView } from "./view.js";

export const NOTE_BODY_REQUIRED = () => badRequest("body is required");
export const NOTE_BODY_TOO_LONG = () => badRequest(`body must be at most ${MAX_NOTE_BODY} characters`);

/** Adds a note to a contact, written by the acting key's team member. The body is stored trimmed. */
export class AddNote {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly notes: NoteRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, ref: SubscriberRef, input: { readonly body?: string | null | undefined }): Promise<Result<NoteView>> => {
    const body = input.body?.trim() ?? "";
    if (body === "") return fail(NOTE_BODY_REQUIRED());
    if (body.length > MAX_NOTE_BODY) return fail(NOTE_BODY_TOO_LONG());
    const subscriber = await identifySubscriber(this.subscribers, actor.companyId, ref);
    if (subscriber._tag === "Left") return subscriber;

    const now = this.clock.now();
    const id = this.ids.next("note");
    await this.notes.insert({
      id,
      companyId: actor.companyId,
      subscriberId: subscriber.right.id,
      authorId: actor.memberId,
      body,
      createdAt: now,
      updatedAt: now,
    });
    const saved = await this.notes.find(actor.companyId, id);
    if (!saved) throw new Error(`note ${id} vanished after being written`);
    return ok(toNoteView(saved));
  };
}
