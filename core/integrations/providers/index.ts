import type { Provider } from "../model.js";
import { affonsoMapping } from "./affonso.js";
import { chargebeeMapping } from "./chargebee.js";
import { clerkMapping } from "./clerk.js";
import { creemMapping } from "./creem.js";
import { dodoMapping } from "./dodo.js";
import { paddleMapping } from "./paddle.js";
import type { ProviderMapping } from "./payload.js";
import { polarMapping } from "./polar.js";
import { posthogMapping } from "./posthog.js";
import { whopMapping } from "./whop.js";

/** Each provider's webhook mapping. */
export const PROVIDER_MAPPINGS: Readonly<Record<Provider, ProviderMapping>> = {
  polar: polarMapping,
  paddle: paddleMapping,
  dodo: dodoMapping,
  whop: whopMapping,
  creem: creemMapping,
  chargebee: chargebeeMapping,
  clerk: clerkMapping,
  posthog: posthogMapping,
  affonso: affonsoMapping,
};
