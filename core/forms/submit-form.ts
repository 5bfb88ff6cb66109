import type { ListRepository } from "../lists/ports.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateSubscriber } from "../subscribers/create-subscriber.js";
import type { TagRepository } from "../tags/ports.js";
import type { FormSubmission } from "./commands.js";
import { FORM_NOT_FOUND } from "./errors.js";
import type { SavedForm } from "./model.js";
import type { FormRepository } from "./ports.js";

/** What the visitor is shown next: the form's message, or its redirect. */
export interface SubmissionOutcome {
  readonly form: SavedForm;
  readonly successMessage: string;
  readonly redirectUrl: string | null;
  /** False when the honeypot was filled: the visitor is answered as usual and nothing is kept. */
  readonly stored: boolean;
}

/** A visitor filled the honeypot field that people never see. */
const isBot = ({ website }: FormSubmission): boolean => (typeof website === "string" ? website.trim() !== "" : website !== undefined && website !== null);

/**
 * A visitor's signup at a form's actionUrl (no key: the form's ID is the capability). The
 * contact is saved through the same use case as POST /subscribers, with the form's lists, tags
 * and duplicate strategy (never the request's), so double opt-in and the sequences started by
 * new contacts apply alike. Lists or tags deleted since the form was saved are left out.
 */
export class SubmitForm {
  constructor(
    private readonly forms: FormRepository,
    private readonly lists: ListRepository,
    private readonly tags: TagRepository,
    private readonly createSubscriber: CreateSubscriber,
  ) {}

  execute = async (formId: string, submission: FormSubmission): Promise<Result<SubmissionOutcome>> => {
    const form = await this.forms.findPublic(formId);
    if (!form) return fail(FORM_NOT_FOUND);
    const outcome = { form, successMessage: form.successMessage, redirectUrl: form.redirectUrl };
    if (isBot(submission)) return ok({ ...outcome, stored: false });
    const [lists, tags] = await Promise.all([
      Promise.all(form.listIds.map((id) => this.lists.find(form.companyId, id))),
      Promise.all(form.tagIds.map((id) => this.tags.find(form.companyId, id))),
    ]);
    const listIds = lists.flatMap((list) => (list ? [list.id] : []));
    const tagNames = tags.flatMap((tag) => (tag ? [tag.name] : []));
    const saved = await this.createSubscriber.forCompany(form.companyId, {
      email: submission.email,
      firstName: submission.firstName,
      lastName: submission.lastName,
      // A form without tags gives none, so `overwrite` does not clear a returning contact's tags.
      ...(listIds.length > 0 ? { lists: listIds } : {}),
      ...(tagNames.length > 0 ? { tags: tagNames } : {}),
      duplicateStrategy: form.duplicateStrategy,
    });
    if (saved._tag === "Left") return saved;
    return ok({ ...outcome, stored: true });
  };
}
