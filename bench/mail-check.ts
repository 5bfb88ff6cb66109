import { createPublicKey } from "node:crypto";
import { simpleParser } from "mailparser";
import { dkimVerify } from "mailauth";
import type { DkimSigningKey } from "../core/delivery/mail-transport.js";

/** What every message of a batch must be: to whom (each exactly once), and what it says. */
export interface ExpectedMail {
  readonly from: string;
  readonly recipients: readonly string[];
  /** The subject and a piece of the HTML, for the recipient. */
  subjectOf(recipient: string): string;
  readonly htmlIncludes: string;
}

/** What each message of a sample must say: a recipient among those sent to, the sender, subject and body. */
export interface ExpectedSample {
  readonly from: string;
  isRecipient(recipient: string): boolean;
  subjectOf(recipient: string): string;
  readonly htmlIncludes: string;
}

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

/**
 * Parses every message a sink received and checks it against what was sent: one message per
 * recipient, the sender, subject and body expected, and a DKIM signature that verifies against
 * the public key of `dkim` (served to the verifier as its DNS record would be).
 */
export async function checkMail(label: string, messages: readonly Buffer[], expected: ExpectedMail, dkim: DkimSigningKey): Promise<void> {
  if (messages.length !== expected.recipients.length) throw new Error(`${label}: ${messages.length} messages received, ${expected.recipients.length} sent`);
  const check = messageCheck(label, dkim);
  const unseen = new Set(expected.recipients);
  for (const raw of messages) {
    const to = await check(raw, expected);
    if (!unseen.delete(to)) throw new Error(`${label}: a message to ${to || "nobody"} was not sent, or arrived twice`);
  }
}

/** Checks a sample of the messages of a send too large to keep (their count is checked elsewhere) the same way. */
export async function checkSampledMail(label: string, samples: readonly Buffer[], expected: ExpectedSample, dkim: DkimSigningKey): Promise<void> {
  if (samples.length === 0) throw new Error(`${label}: no message was sampled`);
  const check = messageCheck(label, dkim);
  for (const raw of samples) {
    const to = await check(raw, expected);
    if (!expected.isRecipient(to)) throw new Error(`${label}: a message went to ${to || "nobody"}, who was not sent one`);
  }
}
