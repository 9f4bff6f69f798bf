import fs from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { OPENAPI_FILE } from '../../src/api/contracts.emit';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }
    >
  >;
  components: { schemas: Record<string, unknown> };
}

const document = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openapi.json', components: document.components });
const compiled = new Map<string, ValidateFunction>();

/** How many responses were checked, so a test can tell the check ran. */
export const validated = { count: 0 };

/** The documented operation a request path names, if any. */
export function documentedOperation(path: string): string | undefined {
  const name = path.split('?')[0].split('/').filter(Boolean).pop();
  return name && document.paths[`/${name}`] ? name : undefined;
}

/**
 * Throws when a JSON response of a documented operation does not match schema/openapi.json:
 * the 200 schema of the operation, or the Exception schema for an error status.
 */
export function assertMatchesOpenApi(path: string, status: number, body: unknown): void {
  const operation = documentedOperation(path);
  if (!operation) return;
  const methods = document.paths[`/${operation}`];
  const responses = Object.values(methods)[0].responses;
  const response = responses[String(status)];
  if (!response?.content) {
    throw new Error(
      `${operation} answered ${status}, a status schema/openapi.json does not document`,
    );
  }
  const ref = response.content['application/json'].schema.$ref;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json${ref}` });
    compiled.set(ref, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `${operation} ${status} does not match schema/openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
  validated.count += 1;
}
