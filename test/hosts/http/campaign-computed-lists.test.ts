import test from "ava";
import { dialects } from "../../helpers/databases.js";
import { sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

const PRODUCTS = [
  { id: "p1", name: "Blue mug", category: "kitchen", price: 12, tags: ["gift"] },
  { id: "p2", name: "Green teapot", category: "kitchen", price: 35, tags: [] },
  { id: "p3", name: "Trail shoes", category: "outdoor", price: 90, tags: ["gift"] },
  { id: "p4", name: "Water bottle", category: "outdoor", price: 15, tags: [] },
  { id: "p5", name: "Chef knife", category: "kitchen", price: 60 },
];

/** Picks in the contact's favourite category, not yet bought, dearest first, two shown. */
const PICKS = {
  key: "picks",
  source: "products",
  where: [
    { field: "category", operator: "equals", attribute: "favoriteCategory" },
    { field: "id", operator: "not_in", attribute: "purchasedIds" },
  ],
  sortBy: { field: "price", direction: "desc" },
  slots: 2,
};

const CAMPAIGN = {
  name: "Picks for you",
  subject: "Hello {{ firstName }}: {{ computed.picks[0].name | default: 'our shop' }}",
  html: "<ul>{% for item in computed.picks %}<li>{{ item.slot }}. {{ item.name }}</li>{% endfor %}</ul>",
  campaignData: { products: PRODUCTS },
  computedLists: [PICKS],
};

async function contact(s: SequenceSession, email: string, firstName: string, customAttributes: Record<string, unknown>): Promise<string> {
  const made = await s.call("POST", "/api/v1/subscribers", { body: { email, firstName, customAttributes } });
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
  return made.body.subscriber.id;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: computed lists: ${title}`;

  test(name("are stored as given with their defaults, and preview-computed-data resolves them for a stored or inline contact"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const created = await s.call("POST", "/api/v1/campaigns", {
      body: { ...CAMPAIGN, computedLists: [PICKS, { key: "gifts", source: "products", where: [{ field: "tags", operator: "contains", value: "gift" }] }] },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const id = created.body.campaign.id;
    const stored = (await s.call("GET", `/api/v1/campaigns/${id}`)).body.campaign.computedLists;
    t.deepEqual(stored, [PICKS, { key: "gifts", source: "products", where: [{ field: "tags", operator: "contains", value: "gift" }], sortBy: null, slots: 3 }]);

    const ann = await contact(s, "ann@example.com", "Ann", { favoriteCategory: "kitchen", purchasedIds: ["p5"] });
    const preview = await s.call("POST", `/api/v1/campaigns/${id}/preview-computed-data`, { body: { subscriberId: ann } });
    t.is(preview.status, 200, JSON.stringify(preview.body));
    t.deepEqual(preview.body.lists, [
      {
        key: "picks",
        items: [PRODUCTS[1], PRODUCTS[0]],
        exposures: [
          { ...PRODUCTS[1], slot: 1 },
          { ...PRODUCTS[0], slot: 2 },
        ],
      },
      {
        key: "gifts",
        items: [PRODUCTS[0], PRODUCTS[2]],
        exposures: [
          { ...PRODUCTS[0], slot: 1 },
          { ...PRODUCTS[2], slot: 2 },
        ],
      },
    ]);
    t.deepEqual(preview.body.variables.computed, { picks: preview.body.lists[0].exposures, gifts: preview.body.lists[1].exposures });

    const inline = await s.call("POST", `/api/v1/campaigns/${id}/preview-computed-data`, {
      body: { subscriber: { email: "bob@example.com", customAttributes: { favoriteCategory: "outdoor" } } },
    });
    t.deepEqual(
      inline.body.lists[0].exposures.map((item: { slot: number; name: string }) => [item.slot, item.name]),
      [
        [1, "Trail shoes"],
        [2, "Water bottle"],
      ],
      "a contact without purchases is shown the whole category",
    );
    const nobody = await s.call("POST", `/api/v1/campaigns/${id}/preview-computed-data`, { body: { subscriber: { email: "cy@example.com" } } });
    t.deepEqual(nobody.body.lists[0], { key: "picks", items: [], exposures: [] }, "no favourite category: nothing equals a value the contact lacks");
  });

  test(name("each recipient of a send gets their own picks, as the render and the preview showed"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const ann = await contact(s, "ann@example.com", "Ann", { favoriteCategory: "kitchen", purchasedIds: ["p5"] });
    await contact(s, "bob@example.com", "Bob", { favoriteCategory: "outdoor", purchasedIds: [] });
    await contact(s, "cy@example.com", "Cy", {});
    const id = (await s.call("POST", "/api/v1/campaigns", { body: CAMPAIGN })).body.campaign.id;

    const render = await s.call("POST", `/api/v1/campaigns/${id}/render`, { body: { subscriberId: ann } });
    t.is(render.status, 200, JSON.stringify(render.body));
    t.is(render.body.subject, "Hello Ann: Green teapot");
    t.regex(render.body.html, /<li>1\. Green teapot<\/li><li>2\. Blue mug<\/li>/);

    const scheduled = await s.call("POST", `/api/v1/campaigns/${id}/schedule`, { body: { scheduledAt: s.api.clock.now().toISOString() } });
    t.is(scheduled.status, 200, JSON.stringify(scheduled.body));
    await s.runJobs();
    const received = Object.fromEntries(s.transport.messages.map(({ message }) => [message.to, message]));
    t.deepEqual(Object.fromEntries(Object.entries(received).map(([to, message]) => [to, message.subject])), {
      "ann@example.com": "Hello Ann: Green teapot",
      "bob@example.com": "Hello Bob: Trail shoes",
      "cy@example.com": "Hello Cy: our shop",
    });
    t.regex(received["ann@example.com"]!.html ?? "", /<li>1\. Green teapot<\/li><li>2\. Blue mug<\/li>/);
    t.regex(received["bob@example.com"]!.html ?? "", /<li>1\. Trail shoes<\/li><li>2\. Water bottle<\/li>/);
    t.regex(received["cy@example.com"]!.html ?? "", /<ul><\/ul>/);

    // A test send to a contact's address resolves that contact's picks too.
    const test = await s.call("POST", `/api/v1/campaigns/${id}/test`, { body: { to: "bob@example.com" } });
    t.is(test.status, 200, JSON.stringify(test.body));
    await s.runJobs();
    t.deepEqual(s.received()["bob@example.com"], ["Hello Bob: Trail shoes", "Hello Bob: Trail shoes"]);
  });

  test(name("bad lists are refused with the field named, and nothing is saved"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = (await s.call("POST", "/api/v1/campaigns", { body: CAMPAIGN })).body.campaign.id;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ computedLists: [{ ...PICKS, source: "articles" }] }, 400, 'computedLists.0.source: campaignData has no array "articles"'],
      [{ computedLists: [PICKS, PICKS] }, 400, 'computedLists.1.key: "picks" is used twice'],
      [{ campaignData: { promo: "X" } }, 400, 'computedLists.0.source: campaignData has no array "products"'],
      [
        { computedLists: [{ ...PICKS, where: [{ field: "id", operator: "equals", value: "p1", attribute: "favoriteId" }] }] },
        400,
        "computedLists.0.where.0: give either value or attribute",
      ],
      [{ computedLists: [{ ...PICKS, where: [{ field: "id", operator: "in", value: "p1" }] }] }, 400, "computedLists.0.where.0.value: must be an array for in"],
      [
        { computedLists: [{ ...PICKS, where: [{ field: "id", operator: "exists", value: 1 }] }] },
        400,
        "computedLists.0.where.0: exists takes neither value nor attribute",
      ],
      [
        { computedLists: [{ ...PICKS, key: "my picks" }] },
        422,
        "Invalid request: computedLists.0.key must be a name of letters, digits and _ (at most 50, not starting with a digit)",
      ],
      [{ computedLists: [{ ...PICKS, slots: 21 }] }, 422, "Invalid request: computedLists.0.slots must be between 1 and 20"],
      [
        { computedLists: [{ ...PICKS, where: [{ field: "id", operator: "like", value: "p" }] }] },
        422,
        "Invalid request: computedLists.0.where.0.operator must be one of",
      ],
      [{ computedLists: [{ key: "picks" }] }, 422, "Invalid request: computedLists.0.source is required"],
    ];
    for (const [body, status, error] of cases) {
      const answer = await s.call("PUT", `/api/v1/campaigns/${id}`, { body });
      t.is(answer.status, status, JSON.stringify(body));
      t.true(String(answer.body.error).startsWith(error), `${JSON.stringify(body)} -> ${answer.body.error}`);
    }
    const after = (await s.call("GET", `/api/v1/campaigns/${id}`)).body.campaign;
    t.deepEqual([after.computedLists, after.campaignData], [[PICKS], { products: PRODUCTS }], "nothing was saved");

    const cleared = await s.call("PUT", `/api/v1/campaigns/${id}`, { body: { computedLists: null, campaignData: { promo: "X" } } });
    t.is(cleared.status, 200, JSON.stringify(cleared.body));
    t.deepEqual(cleared.body.campaign.computedLists, []);
  });
}
