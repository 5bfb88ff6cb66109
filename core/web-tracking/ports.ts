import { token } from "../shared/token.js";
import type { WebTrackingKey } from "./model.js";

export interface WebTrackingKeyChanges {
  readonly name?: string;
  readonly allowedOrigins?: readonly string[];
  readonly isActive?: boolean;
}

/** A company's web tracking keys. Every method but `findByPublicKey` names the company. */
export interface WebTrackingKeyRepository {
  /** Newest first. */
  list(companyId: string): Promise<WebTrackingKey[]>;
  find(companyId: string, keyId: string): Promise<WebTrackingKey | null>;
  /** The key a browser presents: any company's, as the public endpoint learns the company from it. */
  findByPublicKey(publicKey: string): Promise<WebTrackingKey | null>;
  insert(key: WebTrackingKey): Promise<void>;
  /** The key as changed, or null when the company has no such key. */
  update(companyId: string, keyId: string, changes: WebTrackingKeyChanges, at: Date): Promise<WebTrackingKey | null>;
  /** False when the company has no such key. */
  delete(companyId: string, keyId: string): Promise<boolean>;
  markUsed(keyId: string, at: Date): Promise<void>;
}
export const WebTrackingKeyRepository = token<WebTrackingKeyRepository>("lifecycle.WebTrackingKeyRepository");
