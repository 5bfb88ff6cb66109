import type { Clock } from "../../core/ports/clock.js";
import type { Delay } from "../../core/ports/delay.js";

/**
 * A clock that moves only when told: for tests and simulations. As a Delay, sleeping moves it
 * forward by the time slept and returns at once, so retries take no real time.
 */
export class ManualClock implements Clock, Delay {
  private current: Date;

  constructor(start: Date | string = "2026-01-01T00:00:00.000Z") {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to);
  }

  advance(ms: number): Date {
    this.current = new Date(this.current.getTime() + ms);
    return this.now();
  }

  async sleep(ms: number): Promise<void> {
    this.advance(ms);
  }
}
