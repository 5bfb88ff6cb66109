import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Files and the files each one imports at run time. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

// `import ... from "x"`, `export ... from "x"` and `import "x"`; the clause never holds a semicolon.
const STATIC_IMPORT = /^(import|export)\s+(?:(type)\s+)?(?:([^;]*?)\s+from\s+)?["']([^"']+)["']/gm;

/** A clause naming only types (`{ type A, type B }`) is erased from the compiled module: no run-time edge. */
const onlyTypes = (clause: string): boolean => {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces?.[1]) return false;
  const names = braces[1]
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0 && names.every((name) => name.startsWith("type "));
};

const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });

/**
 * The run-time imports among the TypeScript files under `folder`, named relative to it. Imports
 * of files outside the folder and type-only imports are left out: neither can close a cycle here.
 */
export function importGraph(folder: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(folder)) {
    const imports: string[] = [];
    for (const [, , typeKeyword, clause, specifier] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (typeKeyword || !specifier?.startsWith(".") || (clause && onlyTypes(clause))) continue;
      const target = relative(folder, resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      if (!target.startsWith("..")) imports.push(target);
    }
    graph.set(relative(folder, file), imports);
  }
  return graph;
}

/** Every cycle a depth-first walk closes, each as the files along it, ending where it starts. */
export function findCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const onPath = path.indexOf(file);
    if (onPath >= 0) {
      cycles.push([...path.slice(onPath), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const imported of graph.get(file) ?? []) visit(imported);
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return cycles;
}
