import * as t from "io-ts";
import { badRequest } from "../shared/errors.js";
import { decodeCursor, encodeCursor } from "../shared/pagination.js";
import { fail, ok, type Result } from "../shared/result.js";

/**
 * Where a page of a contact's activity ends: its last event's time and ID. The activity is newest
 * first, and at the same instant the higher ID first, so the next page holds the events before
 * this position in that order, from custom events and email events alike.
 */
export interface ActivityPosition {
  readonly at: Date;
  readonly id: string;
}

/** How many events a page of activity shows by default, and at most. */
export const DEFAULT_ACTIVITY_LIMIT = 50;
export const MAX_ACTIVITY_LIMIT = 100;

const Position = t.type({ t: t.string, id: t.string });

export const invalidActivityCursor = () => badRequest("activityCursor is not valid: start again without it");

export const activityCursorOf = (position: ActivityPosition): string => encodeCursor({ t: position.at.toISOString(), id: position.id });

/** The position an `activityCursor` holds (null for none), or 400 when this server did not give it out. */
export function readActivityCursor(cursor: string | undefined): Result<ActivityPosition | null> {
  const text = cursor?.trim() ?? "";
  if (text === "") return ok(null);
  const position = decodeCursor(text, Position);
  const at = position ? new Date(position.t) : null;
  return position && at && !Number.isNaN(at.getTime()) && position.id !== "" ? ok({ at, id: position.id }) : fail(invalidActivityCursor());
}
