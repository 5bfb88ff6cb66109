import type { CustomEventSource } from "./model.js";
import { token } from "../shared/token.js";

/** A custom event accepted for one contact: what automations will react to. */
export interface ContactEvent {
  readonly companyId: string;
  readonly subscriberId: string;
  readonly email: string;
  readonly name: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly occurredAt: Date;
  /** The stored custom_events row. */
  readonly customEventId: string;
  /** Over an hour old when received: stored and segmentable, but it triggers nothing. */
  readonly historical: boolean;
  readonly source: CustomEventSource;
}

/** A listener may answer the IDs of the automations (sequences) the event started. */
export type ContactEventListener = (event: ContactEvent) => Promise<readonly string[] | void> | readonly string[] | void;

/** What the listeners did with one event. */
export interface PublishOutcome {
  /** Messages of the listeners that failed. */
  readonly failures: string[];
  /** IDs of the automations the event started. */
  readonly automationsTriggered: string[];
}

/**
 * In-process domain events: every accepted custom event is published here after it is stored.
 * Automations subscribe later; a listener that throws is reported, never fails the publisher's
 * request twice (the publisher decides what a listener failure means, see `sideEffectFailures`).
 */
export interface ContactEvents {
  /** Runs every listener; returns the messages of those that failed and the automations started. */
  publish(event: ContactEvent): Promise<PublishOutcome>;
  /** Returns a function that removes the listener. */
  subscribe(listener: ContactEventListener): () => void;
}
export const ContactEvents = token<ContactEvents>("lifecycle.ContactEvents");
