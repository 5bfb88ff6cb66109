import { fileURLToPath } from "node:url";
import test from "ava";
import { findCycles, importGraph } from "../helpers/import-cycles.js";

// The sources, not the compiled files: dist may still hold modules whose sources were removed.
const HOSTS = fileURLToPath(new URL("../../../hosts/", import.meta.url));

test("the cycle finder names a cycle in a small graph and finds none once it is broken", (t) => {
  const withCycle = new Map([
    ["container.ts", ["capabilities/index.ts", "tokens.ts"]],
    ["capabilities/index.ts", ["capabilities/accounts.ts"]],
    ["capabilities/accounts.ts", ["container.ts"]],
    ["tokens.ts", []],
  ]);
  t.deepEqual(findCycles(withCycle), [["capabilities/accounts.ts", "container.ts", "capabilities/index.ts", "capabilities/accounts.ts"]]);

  const broken = new Map([...withCycle, ["capabilities/accounts.ts", ["tokens.ts"]]]);
  t.deepEqual(findCycles(broken), []);
});

test("the import graph reads run-time imports and leaves type-only ones out", (t) => {
  const graph = importGraph(HOSTS);
  t.true(graph.get("runtime.ts")?.includes("container.ts"));
  t.false(graph.get("runtime.ts")?.includes("logger.ts"), "runtime.ts imports only the Logger type");
});

test("no module under hosts/ imports itself through others", (t) => {
  const cycles = findCycles(importGraph(HOSTS));
  t.deepEqual(
    cycles.map((cycle) => cycle.join(" -> ")),
    [],
  );
});
