import * as t from "io-ts";
import type { SecretBox } from "../ports/secret-box.js";
import type { SourceConfig } from "./model.js";

/**
 * A run's source configuration (credentials, or the CSV's contacts) sealed with the SecretBox.
 * The run's ID is sealed with it and checked on opening: a sealed value copied onto another
 * run's row does not open there (the role additional authenticated data plays in AES-GCM).
 */

const Sealed = t.type({
  runId: t.string,
  config: t.union([
    t.type({ provider: t.literal("csv"), csv: t.string }),
    t.type({ provider: t.literal("mailchimp"), apiKey: t.string, baseUrl: t.union([t.string, t.null]) }),
  ]),
});

export const sealSource = (box: SecretBox, runId: string, config: SourceConfig): string => box.seal(JSON.stringify({ runId, config }));

/** Throws when the value is not this run's sealed configuration. */
export function openSource(box: SecretBox, runId: string, sealed: string): SourceConfig {
  const decoded = Sealed.decode(JSON.parse(box.open(sealed)));
  if (decoded._tag === "Left" || decoded.right.runId !== runId) throw new Error(`the sealed source of migration run ${runId} is not this run's`);
  return decoded.right.config;
}
