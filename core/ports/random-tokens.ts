import { token } from "../shared/token.js";

/** Unguessable URL-safe strings for capability links (a shared email's public URL): random, not time-sortable, not signed. */
export interface RandomTokens {
  next(): string;
}
export const RandomTokens = token<RandomTokens>("lifecycle.RandomTokens");
