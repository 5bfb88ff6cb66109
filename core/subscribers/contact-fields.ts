import type { Attributes, SubscriberStatus } from "./model.js";

/** The fields of a contact as callers give them: only what is given is applied. */
export interface ContactFields {
  readonly externalId?: string | null | undefined;
  readonly firstName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
  readonly phone?: string | null | undefined;
  readonly timezone?: string | null | undefined;
  /** Applies on creation only. */
  readonly status?: SubscriberStatus | undefined;
  readonly customAttributes?: Attributes | undefined;
  /** Backdates the signup; only ever earlier than now. */
  readonly createdAt?: Date | undefined;
}

/** An empty name or phone is no value. */
export const blankToNull = (value: string | null | undefined): string | null => (value === undefined || value === null || value === "" ? null : value);
/** A backdated signup moves the creation time back, never forward. */
export const earlier = (given: Date | undefined, current: Date): Date => (given && given < current ? given : current);
