import * as t from "io-ts";
import { AddNote } from "../../../core/notes/add-note.js";
import { DeleteNote } from "../../../core/notes/delete-note.js";
import { ListNotes } from "../../../core/notes/list-notes.js";
import { MAX_NOTE_BODY } from "../../../core/notes/model.js";
import { NoteView } from "../../../core/notes/view.js";
import { optional, TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { withSchema } from "../../../core/shared/json-schema.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { ExternalIdQuery, SubscriberEmailPath } from "../../../core/subscribers/commands.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** Missing, null or blank is the spec's 400 'body is required' (not a 422), so the codec only checks the type. */
const NoteBody = withSchema(t.union([t.string, t.null]), {
  type: "string",
  minLength: 1,
  maxLength: MAX_NOTE_BODY,
  description: `at most ${MAX_NOTE_BODY} characters after trimming`,
});
const AddNoteCommand = t.exact(t.partial({ body: optional(NoteBody) }), "AddNoteCommand");

const NotePath = t.type({ noteId: TrimmedNonEmpty });

/** The spec's 401 message for the notes routes (`/subscribers/me` keeps the standard one). */
const NOTES_UNAUTHORIZED = "Unauthorized";

const ERRORS_400 = `400 'body is required' (missing or blank) or over ${MAX_NOTE_BODY} characters; 404 'Subscriber not found'`;

/** Subscriber notes. Fixed paths (`external`, `notes`) are declared before parameterised ones. */
export const notesRoutes = routeModule({ listNotes: ListNotes, addNote: AddNote, deleteNote: DeleteNote }, (uses) => [
  defineRoute({
    method: "get",
    path: "/subscribers/external/notes",
    tag: "Subscriber notes",
    unauthorizedMessage: NOTES_UNAUTHORIZED,
    scopes: ["subscribers:read"],
    summary: "List a subscriber's notes, newest first, by externalId in the query string (for IDs containing `/`)",
    query: ExternalIdQuery,
    response: view({ notes: t.readonlyArray(NoteView) }),
    errors: [404, 422],
    handle: async ({ input, actor }) => under("notes")(await uses.listNotes.execute(actor, { externalId: input.query.externalId })),
  }),
  defineRoute({
    method: "post",
    path: "/subscribers/external/notes",
    tag: "Subscriber notes",
    unauthorizedMessage: NOTES_UNAUTHORIZED,
    scopes: ["subscribers:write"],
    summary: `Add a note to a subscriber by externalId in the query string; the author is the API key's team member. ${ERRORS_400}`,
    query: ExternalIdQuery,
    body: AddNoteCommand,
    response: view({ note: NoteView }),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => under("note")(await uses.addNote.execute(actor, { externalId: input.query.externalId }, input.body)),
  }),
  defineRoute({
    method: "delete",
    path: "/subscribers/notes/:noteId",
    tag: "Subscriber notes",
    unauthorizedMessage: NOTES_UNAUTHORIZED,
    scopes: ["subscribers:write"],
    summary: "Delete a note; 404 'Note not found'",
    params: NotePath,
    response: view({ deleted: t.literal(true), id: Id, subscriberId: Id }),
    errors: [404],
    handle: async ({ input, actor }) => uses.deleteNote.execute(actor, input.params.noteId),
  }),
  defineRoute({
    method: "get",
    path: "/subscribers/:email/notes",
    tag: "Subscriber notes",
    unauthorizedMessage: NOTES_UNAUTHORIZED,
    scopes: ["subscribers:read"],
    summary: "List a subscriber's notes, newest first; email URL-encoded",
    params: SubscriberEmailPath,
    response: view({ notes: t.readonlyArray(NoteView) }),
    errors: [404],
    handle: async ({ input, actor }) => under("notes")(await uses.listNotes.execute(actor, { email: input.params.email })),
  }),
  defineRoute({
    method: "post",
    path: "/subscribers/:email/notes",
    tag: "Subscriber notes",
    unauthorizedMessage: NOTES_UNAUTHORIZED,
    scopes: ["subscribers:write"],
    summary: `Add a note to a subscriber (email URL-encoded); the author is the API key's team member. ${ERRORS_400}`,
    params: SubscriberEmailPath,
    body: AddNoteCommand,
    response: view({ note: NoteView }),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => under("note")(await uses.addNote.execute(actor, { email: input.params.email }, input.body)),
  }),
]);
