import { ALL_SCOPES, READ_SCOPES, type Scope } from "./scopes.js";

/**
 * Named scope selections for new keys. `full_access` is not a fixed list: such a key holds
 * whatever its member's role allows, now and as the catalog grows. `custom` is any explicit list.
 */
export const PRESET_NAMES = [
  "full_access",
  "read_only",
  "custom",
  "agent_safe",
  "ai_drafting",
  "data_ingest_safe",
  "data_ingest_automations",
  "transactional_sender",
  "marketing_sender",
] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface PresetDefinition {
  readonly name: PresetName;
  readonly description: string;
  /** Null for full access and for custom (whose scopes are given). */
  readonly scopes: readonly Scope[] | null;
}

const INGEST: readonly Scope[] = [
  "account:read",
  "subscribers:read",
  "subscribers:write",
  "subscribers:tag",
  "subscribers:import",
  "tags:read",
  "tags:write",
  "lists:read",
  "lists:write",
  "events:read",
  "events:write",
  "accounts:read",
  "accounts:write",
];

const DRAFTING: readonly Scope[] = ["templates:write", "emails:write", "campaigns:write", "sequences:write", "ai:generate"];

const definitions: Readonly<Record<PresetName, PresetDefinition>> = {
  full_access: { name: "full_access", description: "Full access: every permission the key's team role allows", scopes: null },
  read_only: { name: "read_only", description: "Read-only: can read every resource and change nothing", scopes: READ_SCOPES },
  custom: { name: "custom", description: "Custom selection of permissions", scopes: null },
  agent_safe: {
    name: "agent_safe",
    description: "Agent-safe: reads everything and drafts content and audiences, but sends, deletes and exports nothing",
    scopes: [...READ_SCOPES, ...DRAFTING, "segments:write", "tags:write", "lists:write", "subscribers:write", "subscribers:tag"],
  },
  ai_drafting: {
    name: "ai_drafting",
    description: "AI drafting: reads everything and drafts emails, campaigns and sequences without sending",
    scopes: [...READ_SCOPES, ...DRAFTING],
  },
  data_ingest_safe: {
    name: "data_ingest_safe",
    description: "Data ingest: writes contacts, tags, lists and events without triggering automations",
    scopes: INGEST,
  },
  data_ingest_automations: {
    name: "data_ingest_automations",
    description: "Data ingest with automations: writes contacts and events and lets them trigger automations",
    scopes: [...INGEST, "automations:trigger", "sequences:enroll"],
  },
  transactional_sender: {
    name: "transactional_sender",
    description: "Transactional sender: sends transactional emails and reads their delivery",
    scopes: ["account:read", "transactional:read", "transactional:send", "email_sends:read"],
  },
  marketing_sender: {
    name: "marketing_sender",
    description: "Marketing sender: reads everything, edits and sends campaigns",
    scopes: [...READ_SCOPES, ...DRAFTING, "campaigns:send", "segments:write", "tags:write", "lists:write", "subscribers:tag"],
  },
};

export const presetDefinition = (name: PresetName): PresetDefinition => definitions[name];

/** Presets listed in catalog order, with their scopes de-duplicated. */
export const presetScopes = (name: PresetName): readonly Scope[] | null => {
  const scopes = definitions[name].scopes;
  if (!scopes) return null;
  const selected = new Set(scopes);
  return ALL_SCOPES.filter((scope) => selected.has(scope));
};
