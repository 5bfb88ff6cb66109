import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import test from "ava";
import ts from "typescript";

/**
 * The core is pure: it reaches the world only through its ports. This test reads every source
 * file under core/ and names each one that imports I/O (node builtins, drivers, Express,
 * Inversify), reaches into adapters/ or hosts/, or reads the time or waits without the Clock and
 * Delay ports.
 */

// The compiled test runs from dist/test/core; the sources are read from the repository itself.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CORE = join(ROOT, "core");

/** Packages the core may import, each pure (no I/O, no global state). */
const ALLOWED_PACKAGES: ReadonlyMap<string, string> = new Map([
  ["io-ts", "codecs: the single source of every input's shape"],
  ["fp-ts", "Either and pipe, the results of use cases"],
  ["ipaddr.js", "parses and classifies IP addresses (is a bucket endpoint public?): string arithmetic only"],
  ["validator", "the one email address rule (isEmail): string checks only"],
]);

const BUILTINS = new Set(builtinModules);

/** The package an import specifier names (`@scope/name/x` -> `@scope/name`), or null for a relative path. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".")) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** Forbidden globals: time and waiting go through the Clock and Delay ports, bytes stay in adapters. */
const FORBIDDEN_CALLS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bsetTimeout\s*\(/, "setTimeout (use the Delay port)"],
  [/\bsetInterval\s*\(/, "setInterval (schedules belong to the worker)"],
  [/\bsetImmediate\s*\(/, "setImmediate"],
  [/\bDate\.now\s*\(/, "Date.now() (use the Clock port)"],
  [/\bnew\s+Date\s*\(\s*\)/, "new Date() without an argument (use the Clock port)"],
  [/\bBuffer\b/, "Buffer (a Node global: bytes belong to adapters)"],
];

/** What is wrong with one core file's source, as readable sentences; empty when it is pure. */
function violationsOf(file: string, source: string): string[] {
  const found: string[] = [];
  const code = withoutComments(source);
  // TypeScript's own scanner finds every import, export-from, dynamic import and require.
  for (const { fileName: specifier } of ts.preProcessFile(source, true, true).importedFiles) {
    const name = packageOf(specifier);
    if (name === null) {
      const target = join(file, "..", specifier).replaceAll("\\", "/");
      if (!target.startsWith("core/")) found.push(`imports ${specifier} (outside core/)`);
    } else if (specifier.startsWith("node:") || BUILTINS.has(name)) {
      found.push(`imports the Node builtin ${specifier}`);
    } else if (!ALLOWED_PACKAGES.has(name)) {
      found.push(`imports the package ${name} (not one of the pure packages allowed in core/)`);
    }
  }
  for (const [pattern, what] of FORBIDDEN_CALLS) {
    if (pattern.test(code)) found.push(`uses ${what}`);
  }
  return found.map((problem) => `${file} ${problem}`);
}

/** Comments may mention what the code must not do. */
const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

function coreFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return coreFiles(path);
    return entry.name.endsWith(".ts") ? [relative(ROOT, path).replaceAll("\\", "/")] : [];
  });
}

test("the matcher catches each kind of impurity it looks for", (t) => {
  const sample = [
    'import { createGzip } from "node:zlib";',
    'import fs from "fs";',
    'import express from "express";',
    'import type { Knex } from "knex";',
    'import { Container } from "inversify";',
    'import { KnexThing } from "../../adapters/knex/thing.js";',
    'export { bindThing } from "../../hosts/container.js";',
    "await new Promise((resolve) => setTimeout(resolve, 10));",
    "const at = Date.now();",
    "const now = new Date();",
    'const bytes = Buffer.from("x");',
  ].join("\n");
  t.deepEqual(violationsOf("core/sample/sample.ts", sample), [
    "core/sample/sample.ts imports the Node builtin node:zlib",
    "core/sample/sample.ts imports the Node builtin fs",
    "core/sample/sample.ts imports the package express (not one of the pure packages allowed in core/)",
    "core/sample/sample.ts imports the package knex (not one of the pure packages allowed in core/)",
    "core/sample/sample.ts imports the package inversify (not one of the pure packages allowed in core/)",
    "core/sample/sample.ts imports ../../adapters/knex/thing.js (outside core/)",
    "core/sample/sample.ts imports ../../hosts/container.js (outside core/)",
    "core/sample/sample.ts uses setTimeout (use the Delay port)",
    "core/sample/sample.ts uses Date.now() (use the Clock port)",
    "core/sample/sample.ts uses new Date() without an argument (use the Clock port)",
    "core/sample/sample.ts uses Buffer (a Node global: bytes belong to adapters)",
  ]);
});

test("the matcher lets pure code through", (t) => {
  const sample = [
    'import * as t from "io-ts";',
    'import { isLeft } from "fp-ts/lib/Either.js";',
    'import ipaddr from "ipaddr.js";',
    'import type { Clock } from "../ports/clock.js";',
    'import { ok } from "../../core/shared/result.js";',
    "// never call setTimeout or Date.now() here",
    "const later = new Date(now.getTime() + 1000);",
  ].join("\n");
  t.deepEqual(violationsOf("core/sample/sample.ts", sample), []);
});

test("nothing under core/ imports I/O, adapters or hosts, or reads the time or waits without a port", (t) => {
  const files = coreFiles(CORE);
  t.true(files.length > 100, `only ${files.length} files found under ${CORE}`);
  const violations = files.flatMap((file) => violationsOf(file, readFileSync(join(ROOT, file), "utf8")));
  t.deepEqual(violations, []);
});
