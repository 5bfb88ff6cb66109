/** Internal notes the team keeps on a contact: never shown to the contact (spec, Subscriber note). */
export const MAX_NOTE_BODY = 5000;

export interface Note {
  readonly id: string;
  readonly companyId: string;
  readonly subscriberId: string;
  /** The team member who wrote it (the API key's member). */
  readonly authorId: string;
  readonly body: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The team member behind a note; name and email are null once the member has left the company. */
export interface NoteAuthor {
  readonly id: string;
  readonly name: string | null;
  readonly email: string | null;
}

export interface AuthoredNote extends Note {
  readonly author: NoteAuthor;
}
