import * as t from "io-ts";
import type { Knex } from "knex";
import { oneOf } from "../../../core/shared/codecs.js";
import { TAG_COLORS, type Tag, type TagColor, type TagWithUsage } from "../../../core/tags/model.js";
import type { TagRepository } from "../../../core/tags/ports.js";
import { DbBoolean, DbDate, DbInteger, decodeRow, toDbDate } from "../row-codecs.js";

const TagRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  color: oneOf(TAG_COLORS),
  is_system: DbBoolean,
  created_at: DbDate,
  updated_at: DbDate,
});
const TagUsageRow = t.intersection([TagRow, t.type({ subscriber_count: DbInteger })]);

function toTag(row: unknown): Tag {
  const r = decodeRow(TagRow, row, "tags");
  return { id: r.id, companyId: r.company_id, name: r.name, color: r.color, isSystem: r.is_system, createdAt: r.created_at, updatedAt: r.updated_at };
}

function toTagWithUsage(row: unknown): TagWithUsage {
  const r = decodeRow(TagUsageRow, row, "tags");
  return { ...toTag(row), subscriberCount: r.subscriber_count };
}

/** `tags`, with usage counted from `subscriber_tags` (its tag_id index answers each count). */
export class KnexTagRepository implements TagRepository {
  constructor(private readonly knex: Knex) {}

  private withUsage(companyId: string) {
    return this.knex("tags")
      .where("tags.company_id", companyId)
      .select("tags.*", this.knex.raw("(select count(*) from subscriber_tags where subscriber_tags.tag_id = tags.id) as subscriber_count"));
  }

  async list(companyId: string): Promise<TagWithUsage[]> {
    return (await this.withUsage(companyId).orderBy("tags.name")).map(toTagWithUsage);
  }

  async find(companyId: string, tagId: string): Promise<TagWithUsage | null> {
    const [row] = await this.withUsage(companyId).where("tags.id", tagId);
    return row ? toTagWithUsage(row) : null;
  }

  async findByNames(companyId: string, names: readonly string[]): Promise<Tag[]> {
    if (names.length === 0) return [];
    return (await this.knex("tags").where({ company_id: companyId }).whereIn("name", names)).map(toTag);
  }

  async insert(tag: Tag): Promise<boolean> {
    const inserted = await this.knex("tags")
      .insert({
        id: tag.id,
        company_id: tag.companyId,
        name: tag.name,
        color: tag.color,
        is_system: tag.isSystem,
        created_at: toDbDate(tag.createdAt),
        updated_at: toDbDate(tag.updatedAt),
      })
      .onConflict(["company_id", "name"])
      .ignore()
      .returning("id");
    return inserted.length > 0;
  }

  async updateColor(companyId: string, tagId: string, color: TagColor, at: Date): Promise<boolean> {
    return (
      (await this.knex("tags")
        .where({ company_id: companyId, id: tagId })
        .update({ color, updated_at: toDbDate(at) })) > 0
    );
  }

  async delete(companyId: string, tagId: string): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await trx("subscriber_tags").where({ company_id: companyId, tag_id: tagId }).delete();
      return (await trx("tags").where({ company_id: companyId, id: tagId }).delete()) > 0;
    });
  }
}
