import * as t from "io-ts";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import type { AuthoredNote } from "./model.js";

/** The spec's Subscriber note resource: team-only, never shown to the contact. */
export const NoteView = view(
  {
    id: Id,
    subscriberId: Id,
    authorId: Id,
    body: t.string,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    author: view({ id: Id, name: NullableString, email: NullableString }, "NoteAuthor"),
  },
  "SubscriberNote",
);
export type NoteView = t.TypeOf<typeof NoteView>;

export const toNoteView = (note: AuthoredNote): NoteView => ({
  id: note.id,
  subscriberId: note.subscriberId,
  authorId: note.authorId,
  body: note.body,
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
  author: { id: note.author.id, name: note.author.name, email: note.author.email },
});
