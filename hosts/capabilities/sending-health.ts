import { ContainerModule } from "inversify";
import { KnexSendingStatusRepository } from "../../adapters/knex/repositories/sending-status-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { EvaluateSendingHealth } from "../../core/sending-health/evaluate-sending-health.js";
import { GetSendingStatus } from "../../core/sending-health/get-sending-status.js";
import { SendingStatusRepository } from "../../core/sending-health/ports.js";
import { ResumeSending } from "../../core/sending-health/resume-sending.js";
import { SendingGate } from "../../core/sending-health/sending-gate.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Sending health: the pause a high bounce or complaint rate causes, the sends it holds, and the resume. */
export const sendingHealthModule = new ContainerModule((container) => {
  bindClass(container, KnexSendingStatusRepository, [Database, IdGenerator]);
  container.bind<SendingStatusRepository>(SendingStatusRepository).toService(KnexSendingStatusRepository);
  bindClass(container, SendingGate, [SendingStatusRepository, Clock]);
  bindClass(container, EvaluateSendingHealth, [SendingStatusRepository, Clock]);
  bindClass(container, GetSendingStatus, [SendingStatusRepository]);
  bindClass(container, ResumeSending, [SendingStatusRepository, TenancyRepository, Clock]);
});
