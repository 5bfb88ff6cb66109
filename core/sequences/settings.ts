import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TRIGGER_FIELD_NAMES, type UpdateSequenceCommand } from "./commands.js";
import type { Sequence } from "./model.js";
import { triggerSettings, type TriggerInput } from "./triggers.js";

/** The fields of a sequence that are not its graph. */
export type SequenceSettings = Omit<Sequence, "id" | "companyId" | "status" | "graph" | "graphRevision" | "createdAt" | "updatedAt">;

export const DEFAULT_SETTINGS: SequenceSettings = {
  name: "",
  description: null,
  enrollmentPaused: false,
  trigger: "contact_added",
  triggerConfig: { listScope: "any_contact" },
  labels: [],
  userCancellable: false,
  bccEmails: [],
  senderProfileId: null,
  fromEmail: null,
  fromName: null,
  replyProfileId: null,
  replyToEmail: null,
  replyToName: null,
  enrollmentMode: "unlimited",
  enrollmentFieldPath: null,
  sendingWindow: null,
  stopCondition: null,
};

export const AI_UNAVAILABLE = badRequest(
  "AI generation (goal, emailCount, durationDays, emailStyle) is not available on this server: give the content as steps[]",
);

/** A create body is a settings PUT with a name. */
type SettingsInput = Omit<UpdateSequenceCommand, "steps">;

const has = (input: object, key: string) => (input as Record<string, unknown>)[key] !== undefined;

/** The trigger after the request: a new trigger takes only the request's fields; the same one keeps its other fields. */
function nextTrigger(current: SequenceSettings, input: SettingsInput): Result<Pick<SequenceSettings, "trigger" | "triggerConfig">> | null {
  const givesFields = TRIGGER_FIELD_NAMES.some((key) => has(input, key));
  if (input.trigger === undefined && !givesFields) return null;
  const trigger = input.trigger ?? current.trigger;
  const kept = trigger === current.trigger ? current.triggerConfig : {};
  const fields = Object.fromEntries(TRIGGER_FIELD_NAMES.filter((key) => has(input, key)).map((key) => [key, (input as Record<string, unknown>)[key]]));
  // A contact_added trigger names a list or a scope: giving one replaces the other.
  const base = trigger === "contact_added" && (fields.listId !== undefined || fields.listScope !== undefined) ? {} : kept;
  return triggerSettings({ ...base, ...fields, trigger } as TriggerInput);
}

/**
 * The settings after a create or settings PUT: the given fields replace the current ones (null
 * clears the nullable ones), checked across fields (one sender identity, a field path for
 * matching-field enrollment). Null when the request gives no setting at all.
 */
export function applySettings(current: SequenceSettings, input: SettingsInput): Result<SequenceSettings | null> {
  if (has(input, "goal") || has(input, "emailCount") || has(input, "durationDays") || has(input, "emailStyle")) return fail(AI_UNAVAILABLE);
  const trigger = nextTrigger(current, input);
  if (trigger?._tag === "Left") return trigger;
  const given = <K extends keyof SettingsInput>(key: K) => input[key] !== undefined;

  if (input.senderProfileId && input.fromEmail) return fail(badRequest("Give senderProfileId or fromEmail (with fromName), not both"));
  if (input.replyProfileId && input.replyTo) return fail(badRequest("Give replyProfileId or replyTo (with replyToName), not both"));
  const next: SequenceSettings = {
    ...current,
    ...(trigger ? trigger.right : {}),
    ...(given("name") ? { name: input.name! } : {}),
    ...(given("description") ? { description: input.description ?? null } : {}),
    ...(given("userCancellable") ? { userCancellable: input.userCancellable! } : {}),
    ...(given("bccEmails") ? { bccEmails: [...new Set(input.bccEmails ?? [])] } : {}),
    ...(given("labels") ? { labels: [...new Set(input.labels)] } : {}),
    ...(given("senderProfileId")
      ? { senderProfileId: input.senderProfileId ?? null, ...(input.senderProfileId ? { fromEmail: null, fromName: null } : {}) }
      : {}),
    ...(given("fromEmail") ? { fromEmail: input.fromEmail ?? null, ...(input.fromEmail ? { senderProfileId: null } : {}) } : {}),
    ...(given("fromName") ? { fromName: input.fromName ?? null } : {}),
    ...(given("replyProfileId")
      ? { replyProfileId: input.replyProfileId ?? null, ...(input.replyProfileId ? { replyToEmail: null, replyToName: null } : {}) }
      : {}),
    ...(given("replyTo") ? { replyToEmail: input.replyTo ?? null, ...(input.replyTo ? { replyProfileId: null } : {}) } : {}),
    ...(given("replyToName") ? { replyToName: input.replyToName ?? null } : {}),
    ...(given("enrollmentMode") ? { enrollmentMode: input.enrollmentMode! } : {}),
    ...(given("enrollmentFieldPath") ? { enrollmentFieldPath: input.enrollmentFieldPath ?? null } : {}),
    ...(given("sendingWindow") ? { sendingWindow: input.sendingWindow ?? null } : {}),
    ...(given("stopCondition") ? { stopCondition: input.stopCondition ?? null } : {}),
    ...(given("enrollmentPaused") ? { enrollmentPaused: input.enrollmentPaused! } : {}),
  };
  if (next.enrollmentMode === "matching_field" && next.enrollmentFieldPath === null)
    return fail(badRequest("enrollmentMode matching_field needs enrollmentFieldPath (the field that tells enrollments apart)"));
  if (next.fromName !== null && next.fromEmail === null && next.senderProfileId === null && given("fromName"))
    return fail(badRequest("fromName goes with fromEmail"));
  const changed = trigger !== null || Object.keys(input).some((key) => key in DEFAULT_SETTINGS || key === "replyTo");
  return ok(changed ? next : null);
}
