import { ContainerModule } from "inversify";
import { KnexEmailSendQueries } from "../../adapters/knex/repositories/email-send-queries.js";
import { EmailSendQueries } from "../../core/email-sends/email-send-queries.js";
import { GetEmailSend } from "../../core/email-sends/get-email-send.js";
import { ListEmailSends } from "../../core/email-sends/list-email-sends.js";
import { Clock } from "../../core/ports/clock.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** The email-sends search: a read side over the sends and events delivery writes. */
export const emailSendsModule = new ContainerModule((container) => {
  bindClass(container, KnexEmailSendQueries, [Database]);
  container.bind<EmailSendQueries>(EmailSendQueries).toService(KnexEmailSendQueries);
  bindClass(container, ListEmailSends, [EmailSendQueries, Clock]);
  bindClass(container, GetEmailSend, [EmailSendQueries]);
});
