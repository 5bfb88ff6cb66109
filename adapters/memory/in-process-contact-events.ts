import type { ContactEvent, ContactEventListener, ContactEvents, PublishOutcome } from "../../core/events/contact-events.js";

/** Listeners in this process, called in subscription order. */
export class InProcessContactEvents implements ContactEvents {
  private readonly listeners = new Set<ContactEventListener>();

  async publish(event: ContactEvent): Promise<PublishOutcome> {
    const failures: string[] = [];
    const automationsTriggered: string[] = [];
    for (const listener of this.listeners) {
      try {
        const started = await listener(event);
        if (started) automationsTriggered.push(...started);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    return { failures, automationsTriggered };
  }

  subscribe(listener: ContactEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
