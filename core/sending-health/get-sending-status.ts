import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SendingStatusRepository } from "./ports.js";
import { sendingStatusView, type SendingStatusView } from "./view.js";

/** GET /sending-status: whether the company may send, why not, its rates and what to do. */
export class GetSendingStatus {
  constructor(private readonly sendingStatus: SendingStatusRepository) {}

  execute = async (actor: Actor): Promise<Result<SendingStatusView>> => {
    const { companyId } = actor;
    const state = await this.sendingStatus.get(companyId);
    const [bounces, complaints, held] = await Promise.all([
      this.sendingStatus.bounceWindow(companyId, state.bounceResetAt),
      this.sendingStatus.complaintWindow(companyId, state.complaintResetAt),
      this.sendingStatus.countHeld(companyId),
    ]);
    return ok(sendingStatusView(state, bounces, complaints, held));
  };
}
