import type { TransactionalEmail } from "./model.js";
import { token } from "../shared/token.js";

export type SlugWrite = "saved" | "duplicate_slug" | "not_found";

/** A company's saved transactional emails; deleted ones are invisible. */
export interface TransactionalEmailRepository {
  /** Newest first; `search` matches name or slug; `enabled` filters on the flag. */
  list(companyId: string, filter: { readonly search?: string | undefined; readonly enabled?: boolean | undefined }): Promise<TransactionalEmail[]>;
  /** By ID, else by slug. */
  findByIdOrSlug(companyId: string, idOrSlug: string): Promise<TransactionalEmail | null>;
  /** By slug only (the send route's `slug` and its alias `templateId` are never database IDs). */
  findBySlug(companyId: string, slug: string): Promise<TransactionalEmail | null>;
  /** `duplicate_slug` when a live one already has the slug. */
  insert(email: TransactionalEmail): Promise<SlugWrite>;
  update(email: TransactionalEmail): Promise<SlugWrite>;
  softDelete(companyId: string, id: string, at: Date): Promise<boolean>;
}
export const TransactionalEmailRepository = token<TransactionalEmailRepository>("lifecycle.TransactionalEmailRepository");
