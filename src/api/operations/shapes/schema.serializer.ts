import { legacyDate, legacyId } from './legacy-format';
import { COMPONENT_SCHEMAS, type JsonSchema } from './openapi.schemas';

/**
 * The REST JSON of a view written from its component schema, for operations whose answer has no
 * legacy serializer: the schema says what the wire holds, so it is not said again by hand. A
 * number where the schema takes a string is an id (its digits); a Date, a legacy datetime; an
 * object keeps only the properties its schema declares (when it admits no others), in the
 * schema's order, an undefined one left out; lists and `$ref`s are followed.
 */

const REF_PREFIX = '#/components/schemas/';

function resolved(schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${ref}`);
  return resolved(COMPONENT_SCHEMAS[ref.slice(REF_PREFIX.length)]);
}

const takesString = (schema: JsonSchema): boolean =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** The value as `schema` writes it on the wire. */
export function wireValue(schema: JsonSchema | undefined, value: unknown): unknown {
  const shape = resolved(schema);
  if (shape === undefined || value === null || value === undefined) return value;
  if (value instanceof Date) return takesString(shape) ? legacyDate(value) : value;
  if (typeof value === 'number') return takesString(shape) ? legacyId(value) : value;
  if (Array.isArray(value)) return value.map((item) => wireValue(shape.items as JsonSchema, item));
  if (typeof value !== 'object') return value;
  const properties = shape.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (record[name] !== undefined) out[name] = wireValue(property, record[name]);
  }
  if (shape.additionalProperties !== false) {
    for (const [name, item] of Object.entries(record)) {
      if (!Object.hasOwn(out, name)) out[name] = item;
    }
  }
  return out;
}

const UNFOLLOWED = ['oneOf', 'anyOf', 'allOf', 'not', 'prefixItems', 'patternProperties'];

/**
 * Refuses, when the routes are built, an answer whose schema this writer cannot follow: a view
 * would then reach the wire as it is (numeric ids, every field), so it needs a serializer.
 */
function assertFollowed(name: string, schema: JsonSchema | undefined, seen: Set<JsonSchema>): void {
  const shape = resolved(schema);
  if (shape === undefined || seen.has(shape)) return;
  seen.add(shape);
  const unfollowed = UNFOLLOWED.find((keyword) => Object.hasOwn(shape, keyword));
  const isObject =
    shape.type === 'object' || (Array.isArray(shape.type) && shape.type.includes('object'));
  if (unfollowed || (isObject && !shape.properties)) {
    throw new Error(
      `${name}: its schema has ${unfollowed ?? 'an object without properties'}; give its operation a serializer`,
    );
  }
  for (const property of Object.values((shape.properties ?? {}) as Record<string, JsonSchema>)) {
    assertFollowed(name, property, seen);
  }
  assertFollowed(name, shape.items as JsonSchema | undefined, seen);
}

/** The serializer of an answer by its component schema's name. */
export function schemaSerializer(name: string): (view: unknown) => unknown {
  const schema = COMPONENT_SCHEMAS[name];
  if (!schema) throw new Error(`no component schema ${name} in the OpenAPI description`);
  assertFollowed(name, schema, new Set());
  return (view) => wireValue(schema, view);
}
