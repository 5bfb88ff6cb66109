import { ok } from "../../core/shared/result.js";
import { fingerprint } from "./account-fingerprint.js";
import type { ProviderApi } from "./provider-api.js";

/** Clerk connects with its webhook signing secret only: nothing to check, the account is derived from the secret. */
export const clerkApi: ProviderApi = {
  verify: async (credentials) => ok({ providerAccountId: fingerprint("clerk", credentials.webhookSecret), name: null }),
};
