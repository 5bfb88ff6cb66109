import type { ContactEvent, ContactEventListener, ContactEvents } from "../../core/events/contact-events.js";

/** Listeners in this process, called in subscription order. */
export class InProcessContactEvents implements ContactEvents {
  private readonly listeners = new Set<ContactEventListener>();

  async publish(event: ContactEvent): Promise<string[]> {
    const failures: string[] = [];
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    return failures;
  }

  subscribe(listener: ContactEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
