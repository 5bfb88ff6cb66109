import { token } from "../shared/token.js";

/** Waiting a while before trying again. Production waits on a timer; tests use the manual clock. */
export interface Delay {
  sleep(ms: number): Promise<void>;
}
export const Delay = token<Delay>("lifecycle.Delay");
