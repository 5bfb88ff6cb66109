import * as t from "io-ts";
import { boundedText, integerBetween, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { cursorPageFields } from "../shared/pagination.js";
import { OPT_IN_MODES } from "../subscribers/model.js";
import { CONNECTION_KINDS, FREQUENCY_NAMES, MAX_ROWS_PER_RUN, MAX_STATEMENT_TIMEOUT_SECONDS, SYNC_KINDS } from "./model.js";

/** Inputs of the warehouse routes (decisions.md, Warehouse syncs). Types and enumerations are checked here (422). */

export const ConnectionKindCodec = oneOf(CONNECTION_KINDS, "WarehouseConnectionKind");
export const FrequencyCodec = oneOf(FREQUENCY_NAMES, "WarehouseSyncFrequency");
export const SyncKindCodec = oneOf(SYNC_KINDS, "WarehouseSyncKind");
export const SyncOptInModeCodec = oneOf(OPT_IN_MODES, "WarehouseSyncOptInMode");
const Name = boundedText(255);
const Column = boundedText(255);
const MaxRows = integerBetween(1, MAX_ROWS_PER_RUN);
const TimeoutSeconds = integerBetween(1, MAX_STATEMENT_TIMEOUT_SECONDS);
const ListIds = t.array(TrimmedNonEmpty);

/** POST /warehouse-connections. */
export const CreateConnectionCommand = t.exact(
  t.type({ name: required(Name), kind: required(ConnectionKindCodec), url: required(boundedText(2048)) }),
  "CreateWarehouseConnectionCommand",
);
export type CreateConnectionCommand = t.TypeOf<typeof CreateConnectionCommand>;

export const MappingCodec = t.exact(
  t.intersection([
    t.type({ emailColumn: required(Column) }),
    t.partial({
      firstNameColumn: optional(t.union([Column, t.null])),
      attributes: optional(t.array(t.exact(t.type({ column: required(Column), attribute: required(Name) })))),
    }),
  ]),
  "WarehouseSyncMapping",
);
export type MappingCommand = t.TypeOf<typeof MappingCodec>;

/** POST /warehouse-syncs. */
export const CreateSyncCommand = t.exact(
  t.intersection([
    t.type({
      connectionId: required(TrimmedNonEmpty),
      name: required(Name),
      query: required(boundedText(100_000)),
      mapping: required(MappingCodec),
    }),
    t.partial({
      kind: optional(SyncKindCodec),
      cursorColumn: optional(t.union([Column, t.null])),
      listIds: optional(ListIds),
      optInMode: optional(SyncOptInModeCodec),
      triggerAutomations: optional(t.boolean),
      frequency: optional(FrequencyCodec),
      isEnabled: optional(t.boolean),
      maxRowsPerRun: optional(MaxRows),
      statementTimeoutSeconds: optional(TimeoutSeconds),
    }),
  ]),
  "CreateWarehouseSyncCommand",
);
export type CreateSyncCommand = t.TypeOf<typeof CreateSyncCommand>;

/** PATCH /warehouse-syncs/{id}: what a sync may change without a new query (create another sync for that). */
export const UpdateSyncCommand = t.exact(
  t.partial({
    name: optional(Name),
    listIds: optional(ListIds),
    optInMode: optional(SyncOptInModeCodec),
    triggerAutomations: optional(t.boolean),
    frequency: optional(FrequencyCodec),
    isEnabled: optional(t.boolean),
    fullResyncRequested: optional(t.boolean),
    maxRowsPerRun: optional(MaxRows),
    statementTimeoutSeconds: optional(TimeoutSeconds),
  }),
  "UpdateWarehouseSyncCommand",
);
export type UpdateSyncCommand = t.TypeOf<typeof UpdateSyncCommand>;

/** POST /warehouse-syncs/{id}/run. */
export const RunSyncCommand = t.exact(t.partial({ fullResync: optional(t.boolean) }), "RunWarehouseSyncCommand");
export type RunSyncCommand = t.TypeOf<typeof RunSyncCommand>;

export const ListSyncsQuery = t.exact(t.partial(cursorPageFields), "ListWarehouseSyncsQuery");
export type ListSyncsQuery = t.TypeOf<typeof ListSyncsQuery>;

export const SyncPath = t.type({ syncId: TrimmedNonEmpty }, "WarehouseSyncPath");
