import * as t from "io-ts";
import { integerBetween, optional } from "../shared/codecs.js";

/** POST /campaigns/{id}/resume: optionally spread what is left over 1-72 hours from now. */
export const ResumeCampaignCommand = t.exact(t.partial({ spreadOverHours: optional(integerBetween(1, 72)) }), "ResumeCampaignCommand");
export type ResumeCampaignCommand = t.TypeOf<typeof ResumeCampaignCommand>;
