import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { EmailSendQueries } from "./email-send-queries.js";
import { emailSendEventView, emailSendView, type EmailSendEventView, type EmailSendView } from "./view.js";

export interface EmailSendDetail {
  /** Where the send was read from: the database keeps every send we made. */
  readonly source: "database";
  readonly emailSend: EmailSendView;
  readonly events: EmailSendEventView[];
}

/** One send of the company with its events; another company's send is not found. */
export class GetEmailSend {
  constructor(private readonly queries: EmailSendQueries) {}

  execute = async (actor: Actor, emailSendId: string): Promise<Result<EmailSendDetail>> => {
    const send = await this.queries.find(actor.companyId, emailSendId);
    if (!send) return fail(notFound("Email send not found"));
    const events = await this.queries.events(actor.companyId, send.id);
    return ok({ source: "database", emailSend: emailSendView(send), events: events.map(emailSendEventView) });
  };
}
