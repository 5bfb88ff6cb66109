import * as t from "io-ts";
import type { Knex } from "knex";
import type { AuthoredNote, Note } from "../../../core/notes/model.js";
import type { NoteRepository } from "../../../core/notes/ports.js";
import { DbDate, decodeRow, toDbDate } from "../row-codecs.js";

/** A note joined with its author (team member and user); the author columns are null once the member is gone. */
const NoteRow = t.type({
  id: t.string,
  company_id: t.string,
  subscriber_id: t.string,
  author_member_id: t.string,
  body: t.string,
  created_at: DbDate,
  updated_at: DbDate,
  author_name: t.union([t.string, t.null]),
  author_email: t.union([t.string, t.null]),
});

function toAuthoredNote(row: unknown): AuthoredNote {
  const r = decodeRow(NoteRow, row, "subscriber_notes");
  return {
    id: r.id,
    companyId: r.company_id,
    subscriberId: r.subscriber_id,
    authorId: r.author_member_id,
    body: r.body,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    author: { id: r.author_member_id, name: r.author_name, email: r.author_email },
  };
}

export class KnexNoteRepository implements NoteRepository {
  constructor(private readonly knex: Knex) {}

  async insert(note: Note): Promise<void> {
    await this.knex("subscriber_notes").insert({
      id: note.id,
      company_id: note.companyId,
      subscriber_id: note.subscriberId,
      author_member_id: note.authorId,
      body: note.body,
      created_at: toDbDate(note.createdAt),
      updated_at: toDbDate(note.updatedAt),
    });
  }

  async find(companyId: string, noteId: string): Promise<AuthoredNote | null> {
    const [row] = await this.withAuthors(companyId).where("n.id", noteId);
    return row ? toAuthoredNote(row) : null;
  }

  async listForSubscriber(companyId: string, subscriberId: string): Promise<AuthoredNote[]> {
    const rows = await this.withAuthors(companyId)
      .where("n.subscriber_id", subscriberId)
      .orderBy([
        { column: "n.created_at", order: "desc" },
        { column: "n.id", order: "desc" },
      ]);
    return rows.map(toAuthoredNote);
  }

  async delete(companyId: string, noteId: string): Promise<boolean> {
    return (await this.knex("subscriber_notes").where({ company_id: companyId, id: noteId }).delete()) > 0;
  }

  /** The company's notes with their author, who must be a member of the same company. */
  private withAuthors(companyId: string): Knex.QueryBuilder {
    return this.knex("subscriber_notes as n")
      .leftJoin("team_members as m", (join) => join.on("m.id", "n.author_member_id").andOn("m.company_id", "n.company_id"))
      .leftJoin("users as u", "u.id", "m.user_id")
      .where("n.company_id", companyId)
      .select("n.*", "u.name as author_name", "u.email as author_email");
  }
}
