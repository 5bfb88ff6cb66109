import type { AuthoredNote } from "./model.js";

/** The spec's Subscriber note resource. */
export interface NoteView {
  readonly id: string;
  readonly subscriberId: string;
  readonly authorId: string;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly author: { readonly id: string; readonly name: string | null; readonly email: string | null };
}

export const toNoteView = (note: AuthoredNote): NoteView => ({
  id: note.id,
  subscriberId: note.subscriberId,
  authorId: note.authorId,
  body: note.body,
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
  author: { id: note.author.id, name: note.author.name, email: note.author.email },
});
