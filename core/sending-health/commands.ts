import * as t from "io-ts";

/** POST /sending-status/resume: the company confirms it removed the addresses that bounced and fixed where they came from. */
export const ResumeSendingCommand = t.exact(t.type({ listSanitizationConfirmed: t.boolean }), "ResumeSendingCommand");
export type ResumeSendingCommand = t.TypeOf<typeof ResumeSendingCommand>;
