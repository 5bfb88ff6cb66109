import test from "ava";
import { ListView } from "../../../core/lists/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { sendResult } from "../../../hosts/http/route.js";
import type { Response } from "express";

const list: ListView = {
  id: "lst_1",
  name: "Customers",
  description: null,
  isPrivate: false,
  allowMemberUnsubscribe: true,
  subscriberCount: 2,
  activeSubscriberCount: 1,
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
};

// The view codecs are the single source of each response: its type, its wire form and its OpenAPI schema.
test("a field the view codec does not declare does not compile into a view", (t) => {
  const withExtra: ListView = {
    ...list,
    // @ts-expect-error -- the view's type is the codec's: an undeclared field is a compile error
    secretNote: "internal",
  };
  t.truthy(withExtra);
});

test("a payload is sent encoded through its route's response codec: undeclared fields never reach the wire", (t) => {
  let sent: unknown;
  const res = { status: () => res, json: (body: unknown) => (sent = body) } as unknown as Response;
  const leaky = { ...list, internalFlag: true };
  sendResult(res, { _tag: "Right", right: { list: leaky } }, 200, view({ list: ListView }));
  t.deepEqual(sent, { success: true, list });
});
