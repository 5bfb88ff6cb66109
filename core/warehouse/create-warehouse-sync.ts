import type { ListRepository } from "../lists/ports.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import type { DomainError } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { RESERVED_ATTRIBUTE } from "../subscribers/model.js";
import type { CreateSyncCommand, MappingCommand } from "./commands.js";
import { connectionFailed, connectionNotFound, invalidInput } from "./errors.js";
import { DEFAULT_MAX_ROWS_PER_RUN, DEFAULT_STATEMENT_TIMEOUT_SECONDS, firstRunAt, type SyncMapping, type WarehouseSync } from "./model.js";
import { WarehouseError, type WarehouseConnectionRepository, type WarehouseReader, type WarehouseSyncRepository } from "./ports.js";
import { toSyncView, type SyncView } from "./view.js";

/** The lists of a sync must be the company's own (400 otherwise, nothing saved). */
export async function checkLists(lists: ListRepository, companyId: string, listIds: readonly string[]): Promise<Result<string[]>> {
  const distinct = [...new Set(listIds)];
  const missing: string[] = [];
  for (const listId of distinct) if (!(await lists.find(companyId, listId))) missing.push(listId);
  return missing.length > 0 ? fail(invalidInput(`List not found: ${missing.join(", ")}`)) : ok(distinct);
}

/** The mapping as stored, or why it cannot be: one column per attribute name, and `account` belongs to accounts. */
function checkMapping(mapping: MappingCommand): Result<SyncMapping> {
  const attributes = mapping.attributes ?? [];
  const names = new Set<string>();
  for (const { attribute } of attributes) {
    if (attribute === RESERVED_ATTRIBUTE) return fail(invalidInput(`The attribute name '${RESERVED_ATTRIBUTE}' is reserved for accounts`));
    if (names.has(attribute)) return fail(invalidInput(`The attribute '${attribute}' is mapped twice`));
    names.add(attribute);
  }
  return ok({
    emailColumn: mapping.emailColumn,
    firstNameColumn: mapping.firstNameColumn ?? null,
    attributes: attributes.map(({ column, attribute }) => ({ column, attribute })),
  });
}

/** The query's column a name means: the same name, else the same name in another case (Postgres folds unquoted names). */
const columnNamed = (columns: readonly string[], name: string): string | undefined =>
  columns.find((column) => column === name) ?? columns.find((column) => column.toLowerCase() === name.toLowerCase());

/**
 * The mapping and cursor with the query's own column names, or the names the query does not
 * return: every column the sync reads must be one of them.
 */
function resolveColumns(
  columns: readonly string[],
  mapping: SyncMapping,
  cursorColumn: string | null,
): Result<{ mapping: SyncMapping; cursorColumn: string | null }> {
  const missing: string[] = [];
  const resolve = (name: string): string => {
    const found = columnNamed(columns, name);
    if (found === undefined && !missing.includes(name)) missing.push(name);
    return found ?? name;
  };
  const resolved = {
    mapping: {
      emailColumn: resolve(mapping.emailColumn),
      firstNameColumn: mapping.firstNameColumn === null ? null : resolve(mapping.firstNameColumn),
      attributes: mapping.attributes.map(({ column, attribute }) => ({ column: resolve(column), attribute })),
    },
    cursorColumn: cursorColumn === null ? null : resolve(cursorColumn),
  };
  if (missing.length === 0) return ok(resolved);
  return fail(invalidInput(`The query returns no column named ${missing.map((c) => `'${c}'`).join(", ")} (it returns: ${columns.join(", ") || "no column"})`));
}

/** How long describing the query may take at creation. */
const DESCRIBE_TIMEOUT_MS = 15_000;

/**
 * POST /warehouse-syncs: checks the connection, lists and mapping, runs the query once without
 * reading rows (read-only, as every run) to check that it returns the mapped columns, and saves
 * the sync `idle`. Nothing runs yet: its first run comes when asked (POST .../run) or when its
 * schedule comes due, one interval later.
 */
export class CreateWarehouseSync {
  constructor(
    private readonly connections: WarehouseConnectionRepository,
    private readonly syncs: WarehouseSyncRepository,
    private readonly lists: ListRepository,
    private readonly reader: WarehouseReader,
    private readonly secrets: SecretBox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, command: CreateSyncCommand): Promise<Result<SyncView>> => {
    const { companyId } = actor;
    const connection = await this.connections.find(companyId, command.connectionId);
    if (!connection) return fail(connectionNotFound());
    const listIds = await checkLists(this.lists, companyId, command.listIds ?? []);
    if (listIds._tag === "Left") return listIds;
    const mapping = checkMapping(command.mapping);
    if (mapping._tag === "Left") return mapping;

    const statementTimeoutSeconds = command.statementTimeoutSeconds ?? DEFAULT_STATEMENT_TIMEOUT_SECONDS;
    const described = await this.describe(
      { kind: connection.kind, url: this.secrets.open(connection.sealedUrl) },
      command.query,
      Math.min(DESCRIBE_TIMEOUT_MS, statementTimeoutSeconds * 1000),
    );
    if (described._tag === "Left") return described;
    const columns = resolveColumns(described.right, mapping.right, command.cursorColumn ?? null);
    if (columns._tag === "Left") return columns;

    const now = this.clock.now();
    const isEnabled = command.isEnabled ?? true;
    const frequency = command.frequency ?? "hourly";
    const sync: WarehouseSync = {
      id: this.ids.next("whs"),
      companyId,
      connectionId: connection.id,
      name: command.name,
      kind: command.kind ?? "subscribers",
      query: command.query,
      mapping: columns.right.mapping,
      cursorColumn: columns.right.cursorColumn,
      cursorValue: null,
      listIds: listIds.right,
      optInMode: command.optInMode ?? "confirmed",
      triggerAutomations: command.triggerAutomations ?? false,
      frequency,
      isEnabled,
      fullResyncRequested: false,
      maxRowsPerRun: command.maxRowsPerRun ?? DEFAULT_MAX_ROWS_PER_RUN,
      statementTimeoutSeconds,
      status: "idle",
      nextRunAt: firstRunAt(frequency, isEnabled, now),
      lastRunAt: null,
      lastSuccessAt: null,
      lastError: null,
      lastErrorAt: null,
      consecutiveFailures: 0,
      latestRunId: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.syncs.insert(sync);
    return ok(toSyncView(sync, null));
  };

  private async describe(source: { kind: "postgres" | "sqlite"; url: string }, query: string, timeoutMs: number): Promise<Result<string[]>> {
    try {
      return ok(await this.reader.columns(source, query, timeoutMs));
    } catch (error) {
      if (!(error instanceof WarehouseError)) throw error;
      const refusal: DomainError =
        error.kind === "connection"
          ? connectionFailed(`Could not connect to the warehouse: ${error.message}`)
          : invalidInput(`The query could not be run: ${error.message}`);
      return fail(refusal);
    }
  }
}
