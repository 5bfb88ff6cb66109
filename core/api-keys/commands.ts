import * as t from "io-ts";
import { boundedText, optional } from "../shared/codecs.js";
import { PRESET_NAMES } from "../access/presets.js";
import { ALL_SCOPES, isScope, type Scope } from "../access/scopes.js";
import { withSchema } from "../shared/json-schema.js";

const presetKeys = Object.fromEntries(PRESET_NAMES.map((name) => [name, null])) as Record<(typeof PRESET_NAMES)[number], null>;
export const PresetCodec = t.keyof(presetKeys, "Preset");

/** A scope name from the catalog. */
const scopeSchema = { type: "string", enum: [...ALL_SCOPES] };
export const ScopeCodec = withSchema(
  new t.Type<Scope, string, unknown>(
    "Scope",
    (u): u is Scope => typeof u === "string" && isScope(u),
    (u, c) => (typeof u === "string" && isScope(u.trim()) ? t.success(u.trim() as Scope) : t.failure(u, c, "is not a known scope")),
    t.identity,
  ),
  scopeSchema,
);

/** A nonempty list of catalog scopes. */
export const ScopeList = withSchema(
  new t.Type<Scope[], string[], unknown>(
    "ScopeList",
    (u): u is Scope[] => Array.isArray(u) && u.length > 0 && u.every((s) => ScopeCodec.is(s)),
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c, "must be an array of scopes");
      if (u.length === 0) return t.failure(u, c, "must hold at least one scope");
      return t.array(ScopeCodec).validate(u, c);
    },
    (scopes) => [...scopes],
  ),
  { type: "array", items: scopeSchema, minItems: 1 },
);

export const KeyName = boundedText(100);

/** POST /api/v1/api-keys. `scopes` overrides `preset`; neither means full access. */
export const CreateApiKeyCommand = t.exact(
  t.partial({
    name: optional(KeyName),
    scopes: optional(ScopeList),
    preset: optional(PresetCodec),
    deviceName: optional(t.union([KeyName, t.null])),
  }),
  "CreateApiKeyCommand",
);
export type CreateApiKeyCommand = t.TypeOf<typeof CreateApiKeyCommand>;

/** PATCH /api/v1/api-keys/{id}: preset or scopes replace the whole selection. */
export const UpdateApiKeyCommand = t.exact(
  t.partial({
    name: optional(KeyName),
    scopes: optional(ScopeList),
    preset: optional(PresetCodec),
  }),
  "UpdateApiKeyCommand",
);
export type UpdateApiKeyCommand = t.TypeOf<typeof UpdateApiKeyCommand>;
