import test from "ava";
import type { AccountMember, AccountRole } from "../../core/accounts/model.js";
import { selectRecipients, type RecipientOption } from "../../core/accounts/recipients.js";
import { mostSharedWorkDomain, organizationIdOf, planAccounts } from "../../core/accounts/suggestion.js";

let joined = 0;
const member = (subscriberId: string, role: AccountRole): AccountMember => ({
  subscriberId,
  email: `${subscriberId}@acme.com`,
  firstName: null,
  lastName: null,
  role,
  joinedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, joined++)),
});

const everyone = [member("m1", "member"), member("a1", "admin"), member("o1", "owner"), member("a2", "admin"), member("o2", "owner")];
const admins = everyone.filter((m) => m.role !== "owner");
const membersOnly = everyone.filter((m) => m.role === "member");

const cases: ReadonlyArray<[string, readonly AccountMember[], RecipientOption, string[]]> = [
  ["owners: only the owners", everyone, "owners", ["o1", "o2"]],
  ["owners: the admins when there is no owner", admins, "owners", ["a1", "a2"]],
  ["owners: no one when there is neither", membersOnly, "owners", []],
  ["admins: owners and admins", everyone, "admins", ["o1", "o2", "a1", "a2"]],
  ["all: everyone, owners first", everyone, "all", ["o1", "o2", "a1", "a2", "m1"]],
  ["none: no one", everyone, "none", []],
];
for (const [title, members, option, expected] of cases) {
  test(`account event recipients: ${title}`, (t) => {
    const selection = selectRecipients(members, option);
    t.deepEqual(
      selection.recipients.map((m) => m.subscriberId),
      expected,
    );
    t.false(selection.truncated);
  });
}

test("account event recipients: beyond the limit the list is cut and marked truncated", (t) => {
  const selection = selectRecipients(everyone, "all", 3);
  t.deepEqual(
    selection.recipients.map((m) => m.subscriberId),
    ["o1", "o2", "a1"],
  );
  t.true(selection.truncated);
  t.false(selectRecipients(everyone, "all", 5).truncated);
});

test("organization IDs: trimmed strings and numbers; nothing else", (t) => {
  t.is(organizationIdOf(" org-1 "), "org-1");
  t.is(organizationIdOf(42), "42");
  t.is(organizationIdOf(1.5), "1.5");
  for (const value of ["", "   ", true, null, undefined, { id: 1 }, [1], Number.NaN]) t.is(organizationIdOf(value), null);
});

test("the most shared work domain ignores consumer mailboxes and breaks ties alphabetically", (t) => {
  t.is(mostSharedWorkDomain(["a@gmail.com", "b@gmail.com", "c@zeta.io"]), "zeta.io");
  t.is(mostSharedWorkDomain(["a@zeta.io", "b@acme.com"]), "acme.com");
  t.is(mostSharedWorkDomain(["a@zeta.io", "b@Zeta.io", "c@acme.com"]), "zeta.io");
  t.is(mostSharedWorkDomain(["a@outlook.com", "b@yahoo.com"]), null);
  t.is(mostSharedWorkDomain([]), null);
});

test("a plan names accounts from nameKey (latest name), else the work domain, and skips IDs too long for an account", (t) => {
  const long = "x".repeat(256);
  const plan = planAccounts(
    [
      { organizationId: "org-1", subscriberId: "s1", email: "a@acme.com" },
      { organizationId: "org-1", subscriberId: "s2", email: "b@gmail.com" },
      { organizationId: "org-2", subscriberId: "s2", email: "b@gmail.com" },
      { organizationId: "org-3", subscriberId: "s3", email: "c@beta.io" },
      { organizationId: long, subscriberId: "s4", email: "d@x.io" },
    ],
    [
      { organizationId: "org-1", name: "Old name", seenAt: new Date("2026-01-01T00:00:00Z") },
      { organizationId: "org-1", name: "Acme", seenAt: new Date("2026-02-01T00:00:00Z") },
    ],
  );
  t.deepEqual(plan.accounts, [
    { externalId: "org-1", name: "Acme", domain: "acme.com", subscriberIds: ["s1", "s2"] },
    { externalId: "org-2", name: null, domain: null, subscriberIds: ["s2"] },
    { externalId: "org-3", name: "beta.io", domain: "beta.io", subscriberIds: ["s3"] },
  ]);
  t.is(plan.valuesSkipped, 1);
  t.is(plan.contactsSeen, 3, "contacts of skipped values are not counted");
});
