import type { Tag, TagColor, TagWithUsage } from "./model.js";
import { token } from "../shared/token.js";

/** A company's tags with their usage. Every method names the company. */
export interface TagRepository {
  /** Alphabetical by name. */
  list(companyId: string): Promise<TagWithUsage[]>;
  find(companyId: string, tagId: string): Promise<TagWithUsage | null>;
  /** The tags of those (normalised) names that exist. */
  findByNames(companyId: string, names: readonly string[]): Promise<Tag[]>;
  /** False when the company already has a tag of that name. */
  insert(tag: Tag): Promise<boolean>;
  /** False when the company has no such tag. */
  updateColor(companyId: string, tagId: string, color: TagColor, at: Date): Promise<boolean>;
  /** Deletes the tag and takes it off every contact; false when the company has no such tag. */
  delete(companyId: string, tagId: string): Promise<boolean>;
}
export const TagRepository = token<TagRepository>("lifecycle.TagRepository");
