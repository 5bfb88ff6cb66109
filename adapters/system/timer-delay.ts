import type { Delay } from "../../core/ports/delay.js";

export class TimerDelay implements Delay {
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}
