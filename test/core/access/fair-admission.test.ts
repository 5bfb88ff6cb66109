import test from "ava";
import { FairAdmission, type Admission } from "../../../core/access/fair-admission.js";

/** Whether an admission's turn has come, after the promise callbacks already due have run. */
async function working(admission: Admission): Promise<boolean> {
  let started = false;
  void admission.turn.then(() => (started = true));
  await new Promise((resolve) => setImmediate(resolve));
  return started;
}

test("a company is admitted up to its ceiling, counting the requests that wait their turn", async (t) => {
  const gate = new FairAdmission(3, 1);
  const admitted = [gate.tryEnter("acme"), gate.tryEnter("acme"), gate.tryEnter("acme")];
  t.true(admitted.every(Boolean));
  t.is(gate.tryEnter("acme"), undefined);
  t.truthy(gate.tryEnter("globex"), "another company has its own ceiling");
  t.deepEqual(await Promise.all(admitted.map((a) => working(a!))), [true, false, false]);
  admitted[0]!.leave();
  t.truthy(gate.tryEnter("acme"), "a place in flight is given back on leave");
});

test("a freed place goes to the company with the fewest requests at work, not to the longest queue", async (t) => {
  const gate = new FairAdmission(10, 2);
  const storm = Array.from({ length: 6 }, () => gate.tryEnter("storm")!);
  const neighbour = gate.tryEnter("neighbour")!;
  t.deepEqual(await Promise.all(storm.map(working)), [true, true, false, false, false, false]);
  t.false(await working(neighbour));
  storm[0]!.leave();
  t.true(await working(neighbour), "the neighbour's one request goes before the storm's four waiting");
  t.false(await working(storm[2]!));
  storm[1]!.leave();
  t.true(await working(storm[2]!), "alone in the queue, the storm gets the next place");
});

test("alone, a company may use every place; a request abandoned while it waits takes none", async (t) => {
  const gate = new FairAdmission(10, 3);
  const first = [gate.tryEnter("acme")!, gate.tryEnter("acme")!, gate.tryEnter("acme")!];
  t.deepEqual(await Promise.all(first.map(working)), [true, true, true]);
  const abandoned = gate.tryEnter("acme")!;
  const next = gate.tryEnter("acme")!;
  abandoned.leave();
  abandoned.leave();
  first[0]!.leave();
  t.true(await working(next));
  t.false(await working(abandoned));
  // Leaving twice gave back one place, not two: a fourth request still waits.
  t.false(await working(gate.tryEnter("acme")!));
});
