/**
 * Breaking changes between two OpenAPI 3.1 documents, as a generated client sees them.
 *
 * openapi-diff 0.24.1 was tried first and is not used: it parses OpenAPI 3.0 only (our documents
 * are 3.1: type arrays, `const`), it does not compare parameters at all (a removed or newly
 * required query parameter is invisible to it), it reports a whole body's "scope" without naming
 * the field (so a changelog cannot record it), it calls any added response field breaking when a
 * schema is closed, and one comparison of our documents took ~20 s. This walk compares what
 * generated clients depend on and names each change by a key the changelog can list:
 *   `POST /addQuiz` (operation removed), `GET /getResults parameter sessionId`,
 *   `POST /addAnswers body sessionId`, `GET /getQuiz response questions[]`, and, inside a named
 *   component, `OpenAPI Session.owner` (one entry however many operations use it).
 */

type Json = Record<string, unknown>;

export interface BreakingChange {
  /** What the changelog lists, e.g. `GET /getResults parameter sessionId`. */
  key: string;
  /** Why it breaks, e.g. "removed" or "newly required". */
  reason: string;
}

type Direction = 'request' | 'response';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refName(schema: unknown): string | undefined {
  const ref = isObject(schema) ? schema.$ref : undefined;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

/** Follows a local `$ref` (`#/components/...`) once; other values come back as they are. */
function resolve(doc: Json, value: unknown): Json {
  let current = value;
  for (let hops = 0; hops < 10 && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const parts = current.$ref.replace(/^#\//, '').split('/');
    current = parts.reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), doc);
  }
  return isObject(current) ? current : {};
}

/** The JSON types a schema allows; `undefined` when it does not say (anything). */
function typesOf(schema: Json): Set<string> | undefined {
  const declared = schema.type;
  const types = new Set<string>(
    Array.isArray(declared)
      ? (declared as string[])
      : typeof declared === 'string'
        ? [declared]
        : [],
  );
  if (schema.nullable === true) types.add('null');
  // An enum without a type allows the types of its values.
  for (const value of types.size === 0 ? (enumOf(schema) ?? []) : []) {
    types.add(value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value);
  }
  if (types.has('number')) types.add('integer');
  return types.size > 0 ? types : undefined;
}

function enumOf(schema: Json): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  return undefined;
}

function requiredOf(schema: Json): Set<string> {
  return new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
}

class Walker {
  readonly changes: BreakingChange[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly before: Json,
    private readonly after: Json,
  ) {}

  add(key: string, reason: string): void {
    if (!this.changes.some((c) => c.key === key && c.reason === reason)) {
      this.changes.push({ key, reason });
    }
  }

  /** Compares two schemas at `key`; a named component on both sides is compared once, by name. */
  schema(key: string, oldRaw: unknown, newRaw: unknown, direction: Direction): void {
    const oldRef = refName(oldRaw);
    const newRef = refName(newRaw);
    if (newRef !== undefined && oldRef !== undefined) {
      const visit = `${direction}:${oldRef}:${newRef}`;
      if (this.seen.has(visit)) return;
      this.seen.add(visit);
      key = `OpenAPI ${newRef}`;
    }
    const oldSchema = resolve(this.before, oldRaw);
    const newSchema = resolve(this.after, newRaw);
    const newBranches = newSchema.oneOf ?? newSchema.anyOf;
    if (Array.isArray(newBranches) && !newSchema.properties && oldSchema.properties) {
      // One type became a choice of types (a page became typed pages): each must keep its fields.
      const { oneOf: _oneOf, anyOf: _anyOf, ...shared } = oldSchema;
      for (const branch of newBranches) this.schema(key, shared, branch, direction);
    } else {
      this.types(key, oldSchema, newSchema, direction);
      this.properties(key, oldSchema, newSchema, direction);
    }
    if (direction === 'request') this.constraints(key, oldSchema, newSchema);
    if (oldSchema.items !== undefined && newSchema.items !== undefined) {
      this.schema(`${key}[]`, oldSchema.items, newSchema.items, direction);
    }
    for (const combiner of ['oneOf', 'anyOf', 'allOf'] as const) {
      this.branches(key, combiner, oldSchema[combiner], newSchema[combiner], direction);
    }
  }

  private types(key: string, oldSchema: Json, newSchema: Json, direction: Direction): void {
    const oldTypes = typesOf(oldSchema);
    const newTypes = typesOf(newSchema);
    // A choice of schemas without a type of its own: its branches are compared one by one.
    const composed = (s: Json) =>
      !s.type && ['oneOf', 'anyOf', 'allOf'].some((c) => Array.isArray(s[c]));
    if (composed(oldSchema) || composed(newSchema)) return;
    const oldEnum = enumOf(oldSchema);
    const newEnum = enumOf(newSchema);
    if (direction === 'request') {
      // Values a client may send today must still be accepted.
      if (newTypes && (!oldTypes || [...oldTypes].some((t) => !newTypes.has(t)))) {
        this.add(
          key,
          `narrowed type: ${[...(oldTypes ?? ['any'])].join('|')} -> ${[...newTypes].join('|')}`,
        );
      }
      if (newEnum && (!oldEnum || oldEnum.some((v) => !newEnum.includes(v)))) {
        this.add(key, `narrowed to the values ${JSON.stringify(newEnum)}`);
      }
    } else {
      // Values a client receives must still fit the type it was generated with.
      if (oldTypes && (!newTypes || [...newTypes].some((t) => !oldTypes.has(t)))) {
        this.add(
          key,
          `changed type: ${[...oldTypes].join('|')} -> ${[...(newTypes ?? ['any'])].join('|')}`,
        );
      }
      if (oldEnum && !newEnum) this.add(key, 'no longer a closed set of values');
    }
  }

  /** Bounds, lengths and patterns that a request value must now meet and need not before. */
  private constraints(key: string, oldSchema: Json, newSchema: Json): void {
    const tighter: Array<[string, (o: number, n: number) => boolean]> = [
      ['minimum', (o, n) => n > o],
      ['exclusiveMinimum', (o, n) => n > o],
      ['minLength', (o, n) => n > o],
      ['minItems', (o, n) => n > o],
      ['maximum', (o, n) => n < o],
      ['exclusiveMaximum', (o, n) => n < o],
      ['maxLength', (o, n) => n < o],
      ['maxItems', (o, n) => n < o],
    ];
    for (const [name, isTighter] of tighter) {
      const n = newSchema[name];
      const o = oldSchema[name];
      if (typeof n !== 'number') continue;
      if (typeof o !== 'number' || isTighter(o, n)) this.add(key, `narrowed: ${name} ${n}`);
    }
    if (typeof newSchema.pattern === 'string' && newSchema.pattern !== oldSchema.pattern) {
      this.add(key, `narrowed: pattern ${newSchema.pattern}`);
    }
  }

  private properties(key: string, oldSchema: Json, newSchema: Json, direction: Direction): void {
    const oldProps = isObject(oldSchema.properties) ? oldSchema.properties : {};
    const newProps = isObject(newSchema.properties) ? newSchema.properties : {};
    const oldRequired = requiredOf(oldSchema);
    const newRequired = requiredOf(newSchema);
    const join = (name: string) =>
      key.endsWith(' body') || key.endsWith(' response') ? `${key} ${name}` : `${key}.${name}`;
    for (const [name, oldProp] of Object.entries(oldProps)) {
      if (!(name in newProps)) {
        this.add(join(name), 'removed');
        continue;
      }
      if (direction === 'request' && newRequired.has(name) && !oldRequired.has(name)) {
        this.add(join(name), 'newly required');
      }
      if (direction === 'response' && oldRequired.has(name) && !newRequired.has(name)) {
        this.add(join(name), 'no longer always present');
      }
      this.schema(join(name), oldProp, newProps[name], direction);
    }
    if (direction === 'request') {
      for (const name of newRequired) {
        if (!(name in oldProps) && name in newProps) this.add(join(name), 'newly required');
      }
    }
  }

  private branches(
    key: string,
    combiner: string,
    oldList: unknown,
    newList: unknown,
    direction: Direction,
  ): void {
    if (!Array.isArray(oldList) || !Array.isArray(newList)) return;
    const newByRef = new Map(newList.map((b) => [refName(b), b]));
    oldList.forEach((oldBranch, index) => {
      const name = refName(oldBranch);
      const match = name !== undefined ? newByRef.get(name) : newList[index];
      if (match !== undefined)
        this.schema(`${key}.${combiner}[${name ?? index}]`, oldBranch, match, direction);
      else if (direction === 'request') this.add(`${key}.${combiner}[${name ?? index}]`, 'removed');
    });
  }
}

function parameters(doc: Json, pathItem: Json, operation: Json): Map<string, Json> {
  const all = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ].map((p) => resolve(doc, p));
  return new Map(all.map((p) => [`${String(p.in)}:${String(p.name)}`, p]));
}

function jsonSchemaOf(doc: Json, holder: unknown): unknown {
  const content = resolve(doc, holder).content;
  const media = isObject(content) ? content['application/json'] : undefined;
  return isObject(media) ? media.schema : undefined;
}

function operation(
  walker: Walker,
  before: Json,
  after: Json,
  label: string,
  paths: [Json, Json, Json, Json],
): void {
  const [oldItem, oldOp, newItem, newOp] = paths;
  const oldParams = parameters(before, oldItem, oldOp);
  const newParams = parameters(after, newItem, newOp);
  for (const [id, oldParam] of oldParams) {
    const key = `${label} parameter ${String(oldParam.name)}`;
    const newParam = newParams.get(id);
    if (!newParam) {
      walker.add(key, 'removed');
      continue;
    }
    if (newParam.required === true && oldParam.required !== true) walker.add(key, 'newly required');
    walker.schema(key, oldParam.schema, newParam.schema, 'request');
  }
  for (const [id, newParam] of newParams) {
    if (!oldParams.has(id) && newParam.required === true) {
      walker.add(`${label} parameter ${String(newParam.name)}`, 'new required parameter');
    }
  }
  const oldBody = resolve(before, oldOp.requestBody);
  const newBody = resolve(after, newOp.requestBody);
  if (newBody.required === true && oldBody.required !== true)
    walker.add(`${label} body`, 'newly required');
  const oldBodySchema = jsonSchemaOf(before, oldBody);
  const newBodySchema = jsonSchemaOf(after, newBody);
  if (oldBodySchema !== undefined && newBodySchema === undefined)
    walker.add(`${label} body`, 'removed');
  else if (oldBodySchema !== undefined)
    walker.schema(`${label} body`, oldBodySchema, newBodySchema, 'request');
  const oldResponses = isObject(oldOp.responses) ? oldOp.responses : {};
  const newResponses = isObject(newOp.responses) ? newOp.responses : {};
  for (const status of Object.keys(oldResponses).filter((s) => s.startsWith('2'))) {
    const oldSchema = jsonSchemaOf(before, oldResponses[status]);
    const newSchema = jsonSchemaOf(after, newResponses[status]);
    if (oldSchema === undefined) continue;
    if (newSchema === undefined) walker.add(`${label} response ${status}`, 'removed');
    else walker.schema(`${label} response`, oldSchema, newSchema, 'response');
  }
}

/** Every change from `before` to `after` that breaks a client generated from `before`. */
export function openApiBreakingChanges(before: Json, after: Json): BreakingChange[] {
  const walker = new Walker(before, after);
  const oldPaths = isObject(before.paths) ? before.paths : {};
  const newPaths = isObject(after.paths) ? after.paths : {};
  for (const [path, oldItemRaw] of Object.entries(oldPaths)) {
    const oldItem = resolve(before, oldItemRaw);
    const newItem = resolve(after, newPaths[path]);
    for (const method of METHODS) {
      if (!isObject(oldItem[method])) continue;
      const label = `${method.toUpperCase()} ${path}`;
      if (!isObject(newItem[method])) {
        walker.add(label, 'removed');
        continue;
      }
      operation(walker, before, after, label, [oldItem, oldItem[method], newItem, newItem[method]]);
    }
  }
  return [...walker.changes].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
