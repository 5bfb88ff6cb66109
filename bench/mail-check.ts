import { createPublicKey } from "node:crypto";
import { simpleParser } from "mailparser";
import { dkimVerify } from "mailauth";
import type { DkimSigningKey } from "../core/delivery/mail-transport.js";
import type { TallyReport } from "./smtp-tally.js";

/** What each message of a sample must say: a recipient among those sent to, the sender, subject and body. */
export interface ExpectedSample {
  readonly from: string;
  isRecipient(recipient: string): boolean;
  subjectOf(recipient: string): string;
  readonly htmlIncludes: string;
}

/** Recipients `pattern` numbers (its first group) below `size`, as a tally phase expects them. */
export const numberedBelow =
  (pattern: RegExp, size: number) =>
  (recipient: string): boolean => {
    const n = pattern.exec(recipient)?.[1];
    return n !== undefined && Number(n) < size;
  };

/** Checks one message (from, subject, HTML, a DKIM signature that verifies); resolves to its recipient. */
type MessageCheck = (raw: Buffer, expected: Omit<ExpectedSample, "isRecipient">) => Promise<string>;

/** Checks messages against the public key of `dkim`, served to the verifier as its DNS record would be. */
function messageCheck(label: string, dkim: DkimSigningKey): MessageCheck {
  const publicKey = createPublicKey(dkim.privateKey).export({ type: "spki", format: "der" }).toString("base64");
  const record = `${dkim.keySelector}._domainkey.${dkim.domainName}`;
  const resolver = async (name: string, type: string) => {
    if (type === "TXT" && name === record) return [[`v=DKIM1; k=rsa; p=${publicKey}`]];
    throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
  };
  return async (raw, expected) => {
    const fail = (why: string): never => {
      throw new Error(`${label}: ${why}`);
    };
    const mail = await simpleParser(raw);
    const to = (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address ?? "";
    if (mail.from?.value[0]?.address !== expected.from) fail(`a message to ${to} is from ${mail.from?.text}`);
    if (mail.subject !== expected.subjectOf(to)) fail(`a message to ${to} has the subject ${mail.subject}`);
    if (typeof mail.html !== "string" || !mail.html.includes(expected.htmlIncludes)) fail(`a message to ${to} lacks its HTML`);
    const signature = (await dkimVerify(raw, { resolver })).results[0];
    if (signature?.status.result !== "pass") fail(`the DKIM signature of a message to ${to} does not verify (${signature?.status.result ?? "none"})`);
    return to;
  };
}

/** Checks a sample of the messages of a send too large to keep (their count is checked elsewhere) the same way. */
async function checkSampledMail(label: string, samples: readonly Buffer[], expected: ExpectedSample, dkim: DkimSigningKey): Promise<void> {
  if (samples.length === 0) throw new Error(`${label}: no message was sampled`);
  const check = messageCheck(label, dkim);
  for (const raw of samples) {
    const to = await check(raw, expected);
    if (!expected.isRecipient(to)) throw new Error(`${label}: a message went to ${to || "nobody"}, who was not sent one`);
  }
}

/** What the tally counted must be every expected recipient once, nothing else, every message signed; its sample is parsed and verified. */
export async function checkTally(label: string, expected: number, report: TallyReport, sample: ExpectedSample, dkim: DkimSigningKey): Promise<void> {
  const problems = [
    report.received !== expected ? `${report.received} messages received for ${expected}` : "",
    report.distinct !== expected ? `${report.distinct} recipients reached of ${expected}` : "",
    report.duplicates > 0 ? `${report.duplicates} recipients got a second message` : "",
    report.outside > 0 ? `${report.outside} messages to addresses not sent to` : "",
    report.unsigned > 0 ? `${report.unsigned} messages without a DKIM signature` : "",
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`${label}: ${problems.join("; ")}`);
  await checkSampledMail(
    label,
    report.samples.map((sample) => Buffer.from(sample, "base64")),
    sample,
    dkim,
  );
}
