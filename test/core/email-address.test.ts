import test from "ava";
import fc from "fast-check";
import { isLeft, isRight } from "fp-ts/lib/Either.js";
import isEmail from "validator/lib/isEmail.js";
import { Email } from "../../core/shared/codecs.js";
import { isEmailAddress, isPlainAddress, MAX_EMAIL_LENGTH } from "../../core/shared/email-address.js";
import { parseMailbox } from "../../core/transactional/mailbox-text.js";

const local64 = "a".repeat(64);
const label63 = "b".repeat(63);
/** 254 characters in all: the longest address accepted. */
const longest = `${local64}@${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(56)}.test`;

const ACCEPTED: ReadonlyArray<readonly [string, string]> = [
  ["plain", "ada@example.com"],
  ["dots inside the local part", "ada.b.lovelace@example.com"],
  ["atext symbols", "a!#$%&'*+/=?^_`{|}~-z@example.com"],
  ["sub-address", "ada+news@example.com"],
  ["hyphen inside a label", "ada@mail-1.example.com"],
  ["digits in labels", "ada@123.example.com"],
  ["a 63-character label", `ada@${label63}.test`],
  ["a 64-character local part", `${local64}@example.com`],
  ["254 characters", longest],
  ["UTF-8 local part", "josé@example.com"],
  ["IDN domain", "ada@bücher.example"],
  ["IDN in its ASCII form", "ada@xn--bcher-kva.example"],
  ["all non-Latin", "用户@例子.广告"],
];

const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["double dot", "x..y@a.test"],
  ["leading dot", ".ada@example.com"],
  ["trailing dot in the local part", "ada.@example.com"],
  ["quoted local part", '"ada lovelace"@example.com'],
  ["quoted local part without spaces", '"ada"@example.com'],
  ["no at sign", "ada.example.com"],
  ["two at signs", "ada@b@example.com"],
  ["empty local part", "@example.com"],
  ["empty domain", "ada@"],
  ["no TLD", "ada@localhost"],
  ["numeric TLD", "ada@example.123"],
  ["one-letter TLD", "ada@example.c"],
  ["hyphen at a label's start", "ada@-mail.example.com"],
  ["hyphen at a label's end", "ada@mail-.example.com"],
  ["a 64-character label", `ada@${"b".repeat(64)}.test`],
  ["empty label", "ada@mail..example.com"],
  ["trailing dot in the domain", "ada@example.com."],
  ["IPv4 literal", "ada@[192.0.2.1]"],
  ["IPv6 literal", "ada@[IPv6:2001:db8::1]"],
  ["bare IP", "ada@192.0.2.1"],
  ["a 65-character local part", `a${local64}@example.com`],
  ["255 characters", `a${longest}`],
  ["space", "ada lovelace@example.com"],
  ["line break", "ada@example.com\r\nBcc: eve@example.com"],
  ["NUL", "ada\0@example.com"],
  ["comma", "ada,eve@example.com"],
];

for (const [why, address] of ACCEPTED) {
  test(`accepted: ${why}`, (t) => {
    t.true(isEmailAddress(address), address);
    const decoded = Email.decode(address);
    t.true(isRight(decoded) && decoded.right === address.toLowerCase(), address);
  });
}

for (const [why, address] of REFUSED) {
  test(`refused: ${why}`, (t) => {
    t.false(isEmailAddress(address), address);
    t.true(isLeft(Email.decode(address)), address);
    t.is(parseMailbox(address), null, address);
  });
}

test("the codec trims and lower-cases before it checks", (t) => {
  const decoded = Email.decode("  Ada.Lovelace@Example.COM ");
  t.true(isRight(decoded) && decoded.right === "ada.lovelace@example.com");
});

test("a display name is not part of an address", (t) => {
  t.false(isEmailAddress("Ada <ada@example.com>"));
  t.true(isLeft(Email.decode("Ada <ada@example.com>")));
});

test("From and Reply-To text holds the same rule inside the angle brackets", (t) => {
  t.deepEqual(parseMailbox("Ada <Ada@Example.com>"), { email: "ada@example.com", name: "Ada" });
  t.deepEqual(parseMailbox('"Lovelace, Ada" <ada@example.com>'), { email: "ada@example.com", name: "Lovelace, Ada" });
  t.is(parseMailbox("Ada <x..y@a.test>"), null);
  t.is(parseMailbox("Ada <ada@localhost>"), null);
});

/** The rule as written before the plain-address path: validator's isEmail, bounded and unquoted. */
const byValidatorAlone = (address: string): boolean =>
  address.length <= MAX_EMAIL_LENGTH &&
  !address.includes('"') &&
  isEmail.default(address, { allow_utf8_local_part: true, allow_ip_domain: false, require_tld: true });

test("the plain-address path accepts only what validator's isEmail accepts", (t) => {
  const atext = fc.constantFrom(..."abcXYZ019!#$%&'*+-/=?^_`{|}~");
  const local = fc.array(fc.string({ unit: atext, minLength: 1, maxLength: 24 }), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("."));
  const label = fc.string({ unit: fc.constantFrom(..."abz09-"), minLength: 1, maxLength: 70 });
  const tld = fc.string({ unit: fc.constantFrom(..."abz09-"), minLength: 1, maxLength: 8 });
  const near = fc.tuple(local, fc.array(label, { minLength: 1, maxLength: 4 }), tld).map(([l, labels, end]) => `${l}@${[...labels, end].join(".")}`);
  let plain = 0;
  fc.assert(
    fc.property(fc.oneof(near, fc.string({ maxLength: 80 }), fc.emailAddress()), (address) => {
      if (isPlainAddress(address)) plain += 1;
      return isEmailAddress(address) === byValidatorAlone(address);
    }),
    { numRuns: 20_000 },
  );
  t.true(plain > 1_000, `the generated addresses exercised the plain path (${plain} times)`);
});
