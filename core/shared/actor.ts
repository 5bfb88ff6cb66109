import type { Role } from "../tenancy/model.js";
import type { Scope } from "../access/scopes.js";
import type { PresetName } from "../access/presets.js";

/**
 * Who is acting: built once by authentication and passed to every use case.
 * `companyId` is the selected company (the key's own, or one chosen with x-company-id).
 */
export interface Actor {
  readonly companyId: string;
  readonly memberId: string;
  readonly userId: string;
  readonly role: Role;
  readonly scopes: ReadonlySet<Scope>;
  readonly apiKeyId: string;
  /** The preset of the key in use (`full_access` keys follow the role as it changes). */
  readonly apiKeyPreset: PresetName;
}

/** The operator running the CLI: not a tenant member, trusted with bootstrap work. */
export interface OperatorActor {
  readonly kind: "operator";
}
export const OPERATOR: OperatorActor = { kind: "operator" };
