import test from "ava";
import { eachInFlight } from "../../../core/shared/each-in-flight.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

test("every item is worked, at most `width` at a time", async (t) => {
  let running = 0;
  let most = 0;
  const done: number[] = [];
  await eachInFlight([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    running += 1;
    most = Math.max(most, running);
    await tick();
    done.push(item);
    running -= 1;
  });
  t.deepEqual(
    done.sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7],
  );
  t.is(most, 3);
});

test("a failed item does not stop the others; the first failure is thrown once all are done", async (t) => {
  const done: number[] = [];
  const error = await t.throwsAsync(
    eachInFlight([1, 2, 3, 4], 2, async (item) => {
      await tick();
      if (item === 2 || item === 3) throw new Error(`item ${item} failed`);
      done.push(item);
    }),
  );
  t.is(error?.message, "item 2 failed");
  t.deepEqual(
    done.sort((a, b) => a - b),
    [1, 4],
  );
});

test("no items: nothing to do", async (t) => {
  await t.notThrowsAsync(eachInFlight([], 4, () => Promise.reject(new Error("never called"))));
});
