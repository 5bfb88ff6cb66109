import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem, type } from "node:os";
import { fileURLToPath } from "node:url";

/**
 * `npm run bench -- --record`: the results section of BENCHMARKS.md is the output of one full
 * run, with the commit it ran at and the machine it ran on, never edited by hand. Everything
 * between the two markers is replaced; the method text around them is not touched.
 */

const BEGIN = "<!-- results: written by `npm run bench -- --record`; do not edit by hand -->";
const END = "<!-- end of results -->";
/** dist/bench/record.js -> the repository's BENCHMARKS.md. */
const FILE = fileURLToPath(new URL("../../BENCHMARKS.md", import.meta.url));

const git = (...args: string[]): string => execFileSync("git", args, { encoding: "utf8" }).trim();

export interface Recording {
  readonly commit: string;
  readonly startedAt: Date;
  readonly loadAtStart: readonly number[];
}

/** Checked before a run of an hour starts: results are only worth recording for a committed tree. */
export function startRecording(): Recording {
  const text = readFileSync(FILE, "utf8");
  if (!text.includes(BEGIN) || !text.includes(END)) throw new Error(`${FILE} has no results markers (${BEGIN} ... ${END})`);
  const changes = git("status", "--porcelain", "--untracked-files=no");
  if (changes !== "") throw new Error(`the work tree has uncommitted changes: results must name the commit they ran at\n${changes}`);
  return { commit: git("rev-parse", "--short=12", "HEAD"), startedAt: new Date(), loadAtStart: loadavg() };
}

export function recordResults(recording: Recording, lines: readonly string[]): string {
  const cores = cpus();
  // Sizes changed through the environment are named (the database address is not: it may hold a password).
  const overrides = Object.entries(process.env)
    .filter(([name, value]) => name.startsWith("BENCH_") && name !== "BENCH_DATABASE_URL" && value)
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(" ");
  const section = [
    BEGIN,
    "",
    `Commit ${recording.commit}, run from ${recording.startedAt.toISOString()} to ${new Date().toISOString()}.`,
    `Machine: ${cores.length} cores (${cores[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, ${type()} ${release()}; Node ${process.version}.`,
    `Load average (1, 5, 15 min): ${load(recording.loadAtStart)} at the start, ${load(loadavg())} at the end.`,
    `Sizes: ${overrides.length > 0 ? `the defaults, except ${overrides.join(", ")}` : "the defaults"}.`,
    "",
    "```",
    ...lines,
    "```",
    "",
    END,
  ].join("\n");
  const text = readFileSync(FILE, "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END, start) + END.length;
  writeFileSync(FILE, `${text.slice(0, start)}${section}${text.slice(end)}`);
  return FILE;
}
