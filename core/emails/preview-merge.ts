import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { contactVariables, type ContactForMerge } from "./merge-variables.js";

/** What a preview request says about its merge tags (the render body's `subscriberId`, `subscriber`, `variables`). */
export interface PreviewMergeInput {
  readonly subscriberId?: string | undefined;
  readonly subscriber?: ContactForMerge | undefined;
  readonly variables?: Readonly<Record<string, unknown>> | undefined;
}

export interface PreviewMerge {
  readonly variables: Record<string, unknown>;
  /** The names the caller passed itself. */
  readonly supplied: readonly string[];
  /** True when a contact's values fill the merge tags. */
  readonly personalized: boolean;
}

/** The merge values of a preview: a stored contact of the company or an inline one (not both), then the caller's variables. */
export async function previewMerge(subscribers: SubscriberRepository, companyId: string, input: PreviewMergeInput): Promise<Result<PreviewMerge>> {
  if (input.subscriberId !== undefined && input.subscriber !== undefined) return fail(badRequest("Provide subscriberId or subscriber, not both"));
  let contact: ContactForMerge | null = input.subscriber ?? null;
  if (input.subscriberId !== undefined) {
    contact = await subscribers.findById(companyId, input.subscriberId);
    if (!contact) return fail(notFound("Subscriber not found"));
  }
  const custom = input.variables ?? {};
  return ok({ variables: { ...(contact ? contactVariables(contact) : {}), ...custom }, supplied: Object.keys(custom), personalized: contact !== null });
}

/** Where a preview's unsubscribe and view-in-browser links point: a placeholder page, never a real token. */
export const previewLinkPlaceholder = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, "")}/u/preview`;
