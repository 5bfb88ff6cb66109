import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { AddNote } from "../../../core/notes/add-note.js";
import { DeleteNote } from "../../../core/notes/delete-note.js";
import { ListNotes } from "../../../core/notes/list-notes.js";
import { MAX_NOTE_BODY } from "../../../core/notes/model.js";
import { optional, TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { withSchema } from "../../../core/shared/json-schema.js";
import { ExternalIdQuery, SubscriberEmailPath } from "../../../core/subscribers/commands.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

/** The spec's Subscriber note: team-only, never shown to the contact. */
export const NoteResource = t.type({
  id: Id,
  subscriberId: Id,
  authorId: Id,
  body: t.string,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  author: t.type({ id: Id, name: NullableString, email: NullableString }),
});

/** Missing, null or blank is the spec's 400 'body is required' (not a 422), so the codec only checks the type. */
const NoteBody = withSchema(t.union([t.string, t.null]), { type: "string", minLength: 1, maxLength: MAX_NOTE_BODY, description: `at most ${MAX_NOTE_BODY} characters after trimming` });
const AddNoteCommand = t.exact(t.partial({ body: optional(NoteBody) }), "AddNoteCommand");

const NotePath = t.type({ noteId: TrimmedNonEmpty });

const ERRORS_400 = `400 'body is required' (missing or blank) or over ${MAX_NOTE_BODY} characters; 404 'Subscriber not found'`;

/** Subscriber notes. Fixed paths (`external`, `notes`) are declared before parameterised ones. */
export const notesRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/external/notes",
    tag: "Subscriber notes",
    scopes: ["subscribers:read"],
    summary: "List a subscriber's notes, newest first, by externalId in the query string (for IDs containing `/`)",
    query: ExternalIdQuery,
    response: t.type({ notes: t.array(NoteResource) }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) => map((notes) => ({ notes }))(await container.get(ListNotes).execute(actor, { externalId: input.query.externalId })),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/external/notes",
    tag: "Subscriber notes",
    scopes: ["subscribers:write"],
    summary: `Add a note to a subscriber by externalId in the query string; the author is the API key's team member. ${ERRORS_400}`,
    query: ExternalIdQuery,
    body: AddNoteCommand,
    response: t.type({ note: NoteResource }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((note) => ({ note }))(await container.get(AddNote).execute(actor, { externalId: input.query.externalId }, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/subscribers/notes/:noteId",
    tag: "Subscriber notes",
    scopes: ["subscribers:write"],
    summary: "Delete a note; 404 'Note not found'",
    params: NotePath,
    response: t.type({ deleted: t.literal(true), id: Id, subscriberId: Id }),
    errors: [404],
    handle: async ({ input, actor, container }) => container.get(DeleteNote).execute(actor, input.params.noteId),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/:email/notes",
    tag: "Subscriber notes",
    scopes: ["subscribers:read"],
    summary: "List a subscriber's notes, newest first; email URL-encoded",
    params: SubscriberEmailPath,
    response: t.type({ notes: t.array(NoteResource) }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((notes) => ({ notes }))(await container.get(ListNotes).execute(actor, { email: input.params.email })),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/:email/notes",
    tag: "Subscriber notes",
    scopes: ["subscribers:write"],
    summary: `Add a note to a subscriber (email URL-encoded); the author is the API key's team member. ${ERRORS_400}`,
    params: SubscriberEmailPath,
    body: AddNoteCommand,
    response: t.type({ note: NoteResource }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) => map((note) => ({ note }))(await container.get(AddNote).execute(actor, { email: input.params.email }, input.body)),
  }),
];
