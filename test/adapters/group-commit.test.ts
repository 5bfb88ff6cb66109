import test from "ava";
import { GroupCommit } from "../../adapters/knex/group-commit.js";

/** A write that records each group it is given and doubles every item; items < 0 fail the group. */
function recordingWrite() {
  const groups: number[][] = [];
  const write = async (items: readonly number[]): Promise<number[]> => {
    groups.push([...items]);
    if (items.some((item) => item < 0)) throw new Error(`refused ${items.filter((item) => item < 0).join(",")}`);
    return items.map((item) => item * 2);
  };
  return { groups, write };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("submissions made within the group's turns are written together, in order, each getting its own outputs", async (t) => {
  const { groups, write } = recordingWrite();
  const commit = new GroupCommit(write, 2);
  const first = commit.submit([1, 2]);
  await turn();
  const second = commit.submit([3]);
  t.deepEqual(await Promise.all([first, second]), [[2, 4], [6]]);
  t.deepEqual(groups, [[1, 2, 3]]);
});

test("with one turn, a submission made a turn later starts the next group", async (t) => {
  const { groups, write } = recordingWrite();
  const commit = new GroupCommit(write, 1);
  const first = commit.submit([1]);
  await turn();
  await turn();
  const second = commit.submit([2]);
  t.deepEqual(await Promise.all([first, second]), [[2], [4]]);
  t.deepEqual(groups, [[1], [2]]);
});

test("a lone submission is written without waiting for a timer", async (t) => {
  const { write } = recordingWrite();
  const commit = new GroupCommit(write, 2);
  const started = performance.now();
  t.deepEqual(await commit.submit([5]), [10]);
  t.true(performance.now() - started < 50);
});

test("when a group fails, only the submission at fault sees the error", async (t) => {
  const { groups, write } = recordingWrite();
  const commit = new GroupCommit(write, 2);
  const good = commit.submit([1]);
  const bad = commit.submit([-1, 2]);
  const alsoGood = commit.submit([3]);
  t.deepEqual(await good, [2]);
  await t.throwsAsync(bad, { message: "refused -1" });
  t.deepEqual(await alsoGood, [6]);
  t.deepEqual(groups, [[1, -1, 2, 3], [1], [-1, 2], [3]]);
});

test("a group never exceeds maxItems, and submissions are never split", async (t) => {
  const { groups, write } = recordingWrite();
  const commit = new GroupCommit(write, 1, 3);
  const results = await Promise.all([commit.submit([1, 2]), commit.submit([3, 4]), commit.submit([5])]);
  t.deepEqual(results, [[2, 4], [6, 8], [10]]);
  t.deepEqual(groups, [
    [1, 2],
    [3, 4, 5],
  ]);
});

test("an empty submission writes nothing", async (t) => {
  const { groups, write } = recordingWrite();
  t.deepEqual(await new GroupCommit(write).submit([]), []);
  t.deepEqual(groups, []);
});
