import test from "ava";
import { blocksOf, blocksProblem, DEFAULT_FORM_THEME, type FormBlock, type SavedForm } from "../../../core/forms/model.js";

const form = (overrides: Partial<SavedForm> = {}): SavedForm => ({
  id: "form_x",
  companyId: "co_x",
  name: "Footer",
  status: "published",
  listIds: [],
  tagIds: [],
  duplicateStrategy: "skip",
  successMessage: "Thanks",
  redirectUrl: null,
  headline: null,
  description: null,
  buttonText: "Join",
  showFirstName: false,
  showLastName: false,
  theme: DEFAULT_FORM_THEME,
  customBlocks: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...overrides,
});

test("a form's settings describe its layout until it is given blocks of its own", (t) => {
  t.deepEqual(
    blocksOf(form()).map((block) => block.type),
    ["email", "submit"],
  );
  const full = blocksOf(form({ headline: "Hi", description: "News", showFirstName: true, showLastName: true }));
  t.deepEqual(
    full.map((block) => block.type),
    ["heading", "text", "first_name", "last_name", "email", "submit"],
  );
  t.is(full.at(-1)!.text, "Join");
  const own: FormBlock[] = [
    { type: "submit", text: "Go" },
    { type: "email", text: "Mail", required: true },
  ];
  t.deepEqual(blocksOf(form({ customBlocks: own, headline: "ignored" })), own);
});

test("blocks make a form only with exactly one email field and one submit button", (t) => {
  const email: FormBlock = { type: "email", text: "Email", required: true };
  const submit: FormBlock = { type: "submit", text: "Go" };
  t.is(blocksProblem([email, submit]), null);
  t.is(blocksProblem([submit]), "blocks must contain exactly one email field");
  t.is(blocksProblem([email, email, submit]), "blocks must contain exactly one email field");
  t.is(blocksProblem([email]), "blocks must contain exactly one submit button");
  t.is(blocksProblem([email, submit, { type: "first_name", text: "A" }, { type: "first_name", text: "B" }]), "blocks may contain each name field at most once");
});
