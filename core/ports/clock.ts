import { token } from "../shared/token.js";

/** The current time. Production reads the system clock; tests use a manual one. */
export interface Clock {
  now(): Date;
}
export const Clock = token<Clock>("lifecycle.Clock");
