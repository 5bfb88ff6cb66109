import type * as t from "io-ts";

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [key: string]: unknown };

const annotations = new WeakMap<object, JsonSchema>();

/** Gives a hand-written codec (whose structure io-ts cannot see) its JSON Schema. */
export function withSchema<C extends t.Any>(codec: C, schema: JsonSchema): C {
  annotations.set(codec, schema);
  return codec;
}

interface Node {
  readonly _tag?: string;
  readonly name?: string;
  readonly value?: unknown;
  readonly keys?: Record<string, unknown>;
  readonly type?: Node;
  readonly types?: readonly Node[];
  readonly props?: Record<string, Node>;
  readonly domain?: Node;
  readonly codomain?: Node;
}

const isOptional = (node: Node): boolean => node._tag === "UndefinedType" || (node._tag === "UnionType" && (node.types ?? []).some(isOptional));

/** Converts an io-ts codec to JSON Schema: the one description that drives decoding and documentation. */
export function toJsonSchema(codec: t.Any): JsonSchema {
  return convert(codec);
}

function convert(node: Node): JsonSchema {
  const annotated = annotations.get(node);
  if (annotated) return annotated;
  switch (node._tag) {
    case "StringType":
      return { type: "string" };
    case "NumberType":
      return { type: "number" };
    case "BooleanType":
      return { type: "boolean" };
    case "NullType":
      return { type: "null" };
    case "UnknownType":
    case "AnyType":
      return {};
    case "LiteralType":
      return { const: node.value };
    case "KeyofType":
      return { type: "string", enum: Object.keys(node.keys ?? {}) };
    case "ArrayType":
    case "ReadonlyArrayType":
      return { type: "array", items: convert(node.type!) };
    case "RefinementType":
    case "ReadonlyType":
      return convert(node.type!);
    case "ExactType":
    case "StrictType":
      // Unknown keys are stripped, not refused, so the schema does not forbid them.
      return convert(node.type!);
    case "InterfaceType":
    case "PartialType": {
      const entries = Object.entries(node.props ?? {});
      const required = node._tag === "InterfaceType" ? entries.filter(([, prop]) => !isOptional(prop)).map(([key]) => key) : [];
      return {
        type: "object",
        properties: Object.fromEntries(entries.map(([key, prop]) => [key, convert(withoutUndefined(prop))])),
        ...(required.length > 0 ? { required } : {}),
      };
    }
    case "IntersectionType": {
      const parts = (node.types ?? []).map(convert);
      // Object parts merge into one object schema (so additionalProperties stays meaningful).
      if (parts.every((part) => part.type === "object")) {
        return {
          type: "object",
          properties: Object.assign({}, ...parts.map((part) => part.properties)),
          ...(parts.some((part) => part.required) ? { required: parts.flatMap((part) => (part.required as string[] | undefined) ?? []) } : {}),
        };
      }
      return { allOf: parts };
    }
    case "UnionType": {
      const members = (node.types ?? []).filter((member) => member._tag !== "UndefinedType").map(convert);
      return members.length === 1 ? members[0]! : { anyOf: members };
    }
    case "DictionaryType":
      return { type: "object", additionalProperties: convert(node.codomain!) };
    default:
      throw new Error(`no JSON Schema for codec ${node.name ?? node._tag ?? "?"}: annotate it with withSchema()`);
  }
}

function withoutUndefined(node: Node): Node {
  if (node._tag !== "UnionType") return node;
  const rest = (node.types ?? []).filter((member) => member._tag !== "UndefinedType");
  return rest.length === 1 ? rest[0]! : { ...node, types: rest };
}
