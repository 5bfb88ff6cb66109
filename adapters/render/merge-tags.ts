import { Liquid, type Template } from "liquidjs";
import type { MergeTagUse, UnresolvedMergeTag } from "../../core/emails/email-renderer.js";
import { badRequest, type DomainError } from "../../core/shared/errors.js";

/**
 * Merge tags with LiquidJS. Each field of an email (subject, a block's content, a URL) is a
 * template of its own, so problems are reported where they are. Values are HTML-escaped in HTML
 * fields and left as text elsewhere. Missing values never stop a render: they render empty and
 * are reported (strictly: every merge tag outside a condition and without a `default` filter).
 * Files cannot be included (`include`/`render` look only in an empty in-memory map), filters
 * must exist, and parse size, render time (for the whole email) and memory are bounded.
 */

export interface MergeTagLimits {
  /** Characters of one field's template. */
  readonly parseLimit: number;
  /** Milliseconds of rendering for a whole email. */
  readonly renderLimit: number;
  /** Liquid's allocation units (about characters and array items) per field. */
  readonly memoryLimit: number;
}

export const DEFAULT_MERGE_TAG_LIMITS: MergeTagLimits = { parseLimit: 1_000_000, renderLimit: 2_000, memoryLimit: 20_000_000 };

/** A rendering problem on its way to the caller as a DomainError. */
export class RenderFailure extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
  }
}

export interface MergeTagEngines {
  readonly html: MergeTagEngine;
  readonly plain: MergeTagEngine;
}

/** A merge tag of a parsed field: the variable, its path, and whether it must have a value. */
interface FieldVariable {
  readonly root: string;
  readonly name: string;
  readonly segments: readonly Segment[];
  readonly required: boolean;
}

/** A field parsed and analysed once: the same subject or body is sent to many recipients. */
interface ParsedField {
  readonly templates: Template[];
  readonly roots: readonly string[];
  readonly variables: readonly FieldVariable[];
}

const MAX_CACHED_FIELDS = 500;
const MAX_CACHED_FIELD_LENGTH = 100_000;

/** One Liquid engine with its parsed fields (parsing and analysis cost more than rendering). */
export class MergeTagEngine {
  private readonly fields = new Map<string, ParsedField>();

  constructor(readonly liquid: Liquid) {}

  /** Throws Liquid's error when the source does not parse. */
  parse(source: string): ParsedField {
    let field = this.fields.get(source);
    if (field === undefined) {
      field = this.analyse(this.liquid.parse(source));
      if (source.length <= MAX_CACHED_FIELD_LENGTH) {
        if (this.fields.size >= MAX_CACHED_FIELDS) this.fields.clear();
        this.fields.set(source, field);
      }
    }
    return field;
  }

  private analyse(templates: Template[]): ParsedField {
    const globals = this.liquid.analyzeSync(templates).globals;
    const required = new Set(
      Object.values(this.liquid.analyzeSync(requiredOutputs(templates)).globals)
        .flat()
        .map((variable) => `${variable.location.row}:${variable.location.col}`),
    );
    const variables = Object.entries(globals).flatMap(([root, uses]) =>
      uses.map((variable) => ({
        root,
        name: variable.toString(),
        segments: variable.segments,
        required: required.has(`${variable.location.row}:${variable.location.col}`),
      })),
    );
    return { templates, roots: Object.keys(globals), variables };
  }
}

export function mergeTagEngines(limits: MergeTagLimits): MergeTagEngines {
  const options = {
    strictFilters: true,
    ownPropertyOnly: true,
    templates: {},
    relativeReference: false,
    parseLimit: limits.parseLimit,
    memoryLimit: limits.memoryLimit,
  } as const;
  return { html: new MergeTagEngine(new Liquid({ ...options, outputEscape: "escape" })), plain: new MergeTagEngine(new Liquid(options)) };
}

/** The top-level variables the sources' merge tags read; sources that do not parse are skipped. */
export function mergeVariablesOf(engine: MergeTagEngine, sources: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const source of sources) {
    if (!HAS_TAGS.test(source)) continue;
    try {
      for (const root of engine.parse(source).roots) roots.add(root);
    } catch {
      // A field that does not parse reads nothing (sending it would report the error).
    }
  }
  return [...roots].sort();
}

const CONDITIONAL_TAGS = new Set(["if", "unless", "case"]);
const HAS_TAGS = /\{[{%]/;

interface OutputNode {
  readonly value: { readonly filters: ReadonlyArray<{ readonly name: string }> };
}
type TagNode = { readonly name?: string; children?: (partials: boolean, sync: boolean) => Generator<unknown, Template[] | undefined, unknown> };

const isOutput = (node: Template): node is Template & OutputNode => Array.isArray((node as Partial<OutputNode>).value?.filters);

function childrenOf(node: Template): Template[] {
  const tag = node as unknown as TagNode;
  if (typeof tag.children !== "function") return [];
  const steps = tag.children(false, true);
  let step = steps.next();
  while (!step.done) step = steps.next(step.value);
  return step.value ?? [];
}

/** Outputs whose value must exist: not inside if/unless/case, not given a `default`. */
function requiredOutputs(nodes: readonly Template[], conditional = false): Template[] {
  return nodes.flatMap((node) => {
    if (isOutput(node)) return !conditional && !node.value.filters.some((filter) => filter.name === "default") ? [node] : [];
    const name = (node as unknown as TagNode).name;
    return requiredOutputs(childrenOf(node), conditional || (name !== undefined && CONDITIONAL_TAGS.has(name)));
  });
}

type Segment = string | number | object;

/** Follows a variable's path the way Liquid reads it (own properties, `size`, `first`, `last`). */
function lookup(scope: unknown, segments: readonly Segment[]): unknown {
  let current = scope;
  for (const segment of segments) {
    if (typeof segment === "object") return current === undefined ? undefined : "(dynamic)";
    if (current === null || current === undefined) return undefined;
    if (segment === "size" && (Array.isArray(current) || typeof current === "string")) current = current.length;
    else if (segment === "first" && Array.isArray(current)) current = current[0];
    else if (segment === "last" && Array.isArray(current)) current = current[current.length - 1];
    else current = typeof current === "object" && Object.hasOwn(current, segment) ? (current as Record<string | number, unknown>)[segment] : undefined;
  }
  return current;
}

const describeUse = (use: MergeTagUse): string =>
  use.surface === "block" || use.surface === "footer"
    ? `${use.surface === "footer" ? "footer " : ""}${use.blockType ?? "block"} block${use.blockId ? ` '${use.blockId}'` : ""} ${use.field ?? ""}`.trim()
    : use.surface;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function failure(use: MergeTagUse, error: unknown): RenderFailure {
  const message = messageOf(error);
  const limit = /(parse length|template render|memory alloc) limit exceeded/.exec(message);
  if (limit) {
    const kind = limit[1] === "parse length" ? "size" : limit[1] === "template render" ? "time" : "memory";
    return new RenderFailure(
      badRequest(`The email cannot be rendered: the merge tags in ${describeUse(use)} exceed the ${kind} limit`, { code: "RENDER_LIMIT_EXCEEDED" }),
    );
  }
  return new RenderFailure(badRequest(`Invalid merge tag in ${describeUse(use)}: ${message}`, { code: "INVALID_MERGE_TAG" }));
}

interface Tracked {
  readonly reason: UnresolvedMergeTag["reason"];
  readonly usedIn: MergeTagUse[];
}

/** The merge tags of one email: renders its fields against one scope and records what was missing. */
export class MergeTagSession {
  /** Time spent rendering this email's fields so far: the limit is on that, not on the wall clock between fields (other requests run there). */
  private spentMs = 0;
  private readonly renderLimit: number;
  private readonly unresolved = new Map<string, Tracked>();
  private readonly roots = new Set<string>();

  constructor(
    private readonly engines: MergeTagEngines,
    private readonly scope: Readonly<Record<string, unknown>>,
    limits: MergeTagLimits,
  ) {
    this.renderLimit = limits.renderLimit;
  }

  /** A field of HTML: values are escaped. */
  html = (source: string, use: MergeTagUse): Promise<string> => this.render(this.engines.html, source, use);

  /** A field of text (subject, URL, alt text): values are inserted as they are. */
  plain = (source: string, use: MergeTagUse): Promise<string> => this.render(this.engines.plain, source, use);

  private async render(engine: MergeTagEngine, source: string, use: MergeTagUse): Promise<string> {
    if (!HAS_TAGS.test(source)) return source;
    let field: ParsedField;
    try {
      field = engine.parse(source);
    } catch (error) {
      throw failure(use, error);
    }
    this.track(field, use);
    const remaining = this.renderLimit - this.spentMs;
    if (remaining <= 0) throw failure(use, new Error("template render limit exceeded"));
    const started = Date.now();
    try {
      return String(await engine.liquid.render(field.templates, this.scope, { renderLimit: remaining }));
    } catch (error) {
      throw failure(use, error);
    } finally {
      this.spentMs += Date.now() - started;
    }
  }

  private track(field: ParsedField, use: MergeTagUse): void {
    for (const root of field.roots) this.roots.add(root);
    for (const variable of field.variables) {
      if (!variable.required) continue;
      const value = lookup(this.scope, variable.segments);
      if (value !== undefined && value !== null && value !== "") continue;
      const tracked = this.unresolved.get(variable.name) ?? { reason: value === undefined ? "unknown" : "no_value", usedIn: [] };
      if (!tracked.usedIn.some((known) => JSON.stringify(known) === JSON.stringify(use))) tracked.usedIn.push(use);
      this.unresolved.set(variable.name, tracked);
    }
  }

  /** What rendered empty, and which of the caller's own variables no merge tag used. */
  report(supplied: readonly string[] = []): { missingVariables: string[]; unresolvedMergeTags: UnresolvedMergeTag[]; unusedVariables: string[] } {
    const unresolvedMergeTags = [...this.unresolved].map(([name, tracked]) => ({ name, reason: tracked.reason, usedIn: tracked.usedIn }));
    return {
      missingVariables: unresolvedMergeTags.map((tag) => tag.name),
      unresolvedMergeTags,
      unusedVariables: supplied.filter((name) => !this.roots.has(name)),
    };
  }
}
