import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { identifySubscriber, type SubscriberRef } from "../subscribers/identify.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { NoteRepository } from "./ports.js";
import { toNoteView, type NoteView } from "./view.js";

/** A contact's notes, newest first, with their authors. */
export class ListNotes {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly notes: NoteRepository,
  ) {}

  execute = async (actor: Actor, ref: SubscriberRef): Promise<Result<NoteView[]>> => {
    const subscriber = await identifySubscriber(this.subscribers, actor.companyId, ref);
    if (subscriber._tag === "Left") return subscriber;
    const notes = await this.notes.listForSubscriber(actor.companyId, subscriber.right.id);
    return ok(notes.map(toNoteView));
  };
}
