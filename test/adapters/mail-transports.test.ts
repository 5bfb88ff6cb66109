import test from "ava";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dkimVerify } from "mailauth";
import { simpleParser } from "mailparser";
import { mailTransportFromUrl } from "../../adapters/mail/mail-transport-from-url.js";
import { MemoryMailTransport } from "../../adapters/memory/memory-mail-transport.js";
import type { OutgoingMessage } from "../../core/delivery/mail-transport.js";
import { smtpSink } from "../helpers/smtp-sink.js";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const DKIM = { domainName: "brand.example", keySelector: "lc1", privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
const DKIM_TXT = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

/** Answers only the selector's TXT record: no real DNS. */
const resolver = async (name: string, type: string) => {
  if (type === "TXT" && name === `${DKIM.keySelector}._domainkey.${DKIM.domainName}`) return [[DKIM_TXT]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
};

const message = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  messageId: "<send_01TEST@brand.example>",
  from: { email: "news@brand.example", name: "Brand News" },
  to: "reader@example.org",
  replyTo: "support@brand.example",
  subject: "Welcome aboard",
  html: "<p>Hello <b>reader</b></p>",
  text: "Hello reader",
  headers: { "List-Unsubscribe": "<https://lifecycle.test/u/token123>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  dkim: DKIM,
  attachments: [{ filename: "terms.txt", contentBase64: Buffer.from("the terms").toString("base64"), contentType: "text/plain" }],
  ...overrides,
});

test("smtp:// delivers the composed message to a real SMTP server: headers, both parts, attachment and a DKIM signature that verifies", async (t) => {
  const sink = await smtpSink(t);
  const transport = mailTransportFromUrl(`smtp://relay:s3cret@127.0.0.1:${sink.port}`);
  t.teardown(() => transport.close());

  const sent = await transport.send(message());
  t.is(sent.messageId, "<send_01TEST@brand.example>");
  t.deepEqual(sent.accepted, ["reader@example.org"]);
  t.deepEqual(sent.rejected, []);
  t.regex(sent.response, /^250/);

  t.is(sink.received.length, 1);
  const [delivery] = sink.received;
  t.is(delivery!.user, "relay", "authenticated with the credentials of the URL");
  t.deepEqual(delivery!.to, ["reader@example.org"]);
  t.is(delivery!.from, "news@brand.example");

  const parsed = await simpleParser(delivery!.raw);
  t.is(parsed.messageId, "<send_01TEST@brand.example>");
  t.is(parsed.subject, "Welcome aboard");
  t.deepEqual(parsed.from?.value, [{ address: "news@brand.example", name: "Brand News" }]);
  t.is(parsed.replyTo?.text, "support@brand.example");
  const headerLine = (key: string) => parsed.headerLines.find((line) => line.key === key)?.line;
  t.is(headerLine("list-unsubscribe-post"), "List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  t.is(headerLine("list-unsubscribe"), "List-Unsubscribe: <https://lifecycle.test/u/token123>");
  t.is(parsed.html, "<p>Hello <b>reader</b></p>");
  t.is(parsed.text?.trim(), "Hello reader");
  t.is(parsed.attachments.length, 1);
  t.is(parsed.attachments[0]!.filename, "terms.txt");
  t.is(parsed.attachments[0]!.content.toString(), "the terms");

  const verified = await dkimVerify(delivery!.raw, { resolver });
  t.is(verified.results.length, 1);
  t.is(verified.results[0]!.status.result, "pass", verified.results[0]!.info);
  t.is(verified.results[0]!.signingDomain, "brand.example");

  // A tampered body no longer verifies: the check can fail.
  const tampered = Buffer.from(delivery!.raw.toString("utf8").replace("Hello reader", "Hello hacker"));
  t.not((await dkimVerify(tampered, { resolver })).results[0]!.status.result, "pass");
});

test("smtp:// rejects when the relay refuses the recipient, and wrong credentials fail the send", async (t) => {
  const sink = await smtpSink(t);
  const transport = mailTransportFromUrl(`smtp://127.0.0.1:${sink.port}`);
  t.teardown(() => transport.close());
  await t.throwsAsync(transport.send(message({ to: "rejected@example.org", dkim: null })), { message: /550|No such user|recipients/i });

  const wrong = mailTransportFromUrl(`smtp://relay:wrong@127.0.0.1:${sink.port}`);
  t.teardown(() => wrong.close());
  await t.throwsAsync(wrong.send(message()), { message: /Invalid credentials|auth/i });
  t.is(sink.received.length, 0);
});

test("a message without a DKIM key or unsubscribe page carries neither header", async (t) => {
  const sink = await smtpSink(t);
  const transport = mailTransportFromUrl(`smtp://127.0.0.1:${sink.port}`);
  t.teardown(() => transport.close());
  await transport.send(message({ dkim: null, headers: {}, attachments: [] }));
  const parsed = await simpleParser(sink.received[0]!.raw);
  t.false(parsed.headers.has("dkim-signature"));
  t.false(parsed.headerLines.some((line) => line.key.startsWith("list-unsubscribe")));
  t.is(parsed.attachments.length, 0);
});

test("file:<dir> writes one readable .eml per message, with no temporary file left behind", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-outbox-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const outbox = join(dir, "outbox");
  const transport = mailTransportFromUrl(`file:${outbox}`);
  const sent = await transport.send(message());
  await transport.send(message({ messageId: "<send_02TEST@brand.example>", subject: "Second" }));
  t.deepEqual(sent.accepted, ["reader@example.org"]);

  const files = readdirSync(outbox).sort();
  t.deepEqual(files, ["send_01TEST@brand.example.eml", "send_02TEST@brand.example.eml"]);
  const raw = readFileSync(join(outbox, files[0]!));
  const parsed = await simpleParser(raw);
  t.is(parsed.messageId, "<send_01TEST@brand.example>");
  t.is(parsed.text?.trim(), "Hello reader");
  t.is((await dkimVerify(raw, { resolver })).results[0]!.status.result, "pass");
});

test("memory: keeps each message's MIME source; unknown MAIL_URL schemes are refused", async (t) => {
  const transport = mailTransportFromUrl("memory:");
  t.true(transport instanceof MemoryMailTransport);
  await transport.send(message());
  const [captured] = (transport as MemoryMailTransport).messages;
  t.is(captured!.message.subject, "Welcome aboard");
  t.is((await simpleParser(captured!.raw)).messageId, "<send_01TEST@brand.example>");
  t.throws(() => mailTransportFromUrl("ftp://example.org"), { message: /MAIL_URL must be/ });
});
