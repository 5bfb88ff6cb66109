/** CSV columns that are contact fields (matched without case, `_`, `-` or spaces); any other column is a custom attribute. */
const FIELDS: Readonly<Record<string, string>> = {
  email: "email",
  firstname: "firstName",
  lastname: "lastName",
  externalid: "externalId",
  tags: "tags",
  phone: "phone",
  timezone: "timezone",
  status: "status",
  createdat: "createdAt",
};

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A cell of a custom attribute column: numbers and booleans keep their JSON types ("007" stays text). */
export function attributeValue(cell: string): string | number | boolean {
  const lower = cell.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  if (NUMBER.test(cell)) {
    const n = Number(cell);
    if (Number.isFinite(n) && (cell.includes(".") || Number.isSafeInteger(n))) return n;
  }
  return cell;
}

/**
 * Turns CSV records (the cells of a line, in header order) into import rows: known columns become
 * fields, `tags` is split on commas and semicolons, every other non-empty cell is a custom
 * attribute named by its header. Empty cells are not given.
 */
export function csvRowMapper(header: readonly string[]): (cells: readonly string[]) => Record<string, unknown> {
  const columns = header.map((name) => {
    const trimmed = name.trim();
    return { name: trimmed, field: FIELDS[trimmed.toLowerCase().replace(/[\s_-]+/g, "")] ?? null };
  });
  return (cells) => {
    const row: Record<string, unknown> = {};
    let attributes: Record<string, unknown> | undefined;
    const count = Math.min(cells.length, columns.length);
    for (let i = 0; i < count; i++) {
      const cell = cells[i]!.trim();
      if (cell === "") continue;
      const { name, field } = columns[i]!;
      if (field === "tags") {
        row.tags = cell
          .split(/[,;]/)
          .map((tag) => tag.trim())
          .filter(Boolean);
      } else if (field) {
        row[field] = cell;
      } else if (name !== "") {
        (attributes ??= {})[name] = attributeValue(cell);
      }
    }
    if (attributes) row.customAttributes = attributes;
    return row;
  };
}
