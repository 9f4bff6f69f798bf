/**
 * The versioning check of contract §15: `schema/` is the published interface, and a change that
 * would break a client generated from the last release (schema/published/) fails unless
 * schema/CHANGELOG.md records it under "Unreleased". The SDL is compared by @graphql-inspector/core
 * (its BREAKING criticality); OpenAPI by ./openapi-breaking (why not openapi-diff: see there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';
import { openApiBreakingChanges, type BreakingChange } from './openapi-breaking';

export const SCHEMA_DIR = path.resolve(__dirname, '../../schema');

export interface SchemaFiles {
  graphql: string;
  openapi: string;
}

/** The files a check compares: the published baseline, the current files, the changelog. */
export interface VersioningInput {
  published: SchemaFiles;
  current: SchemaFiles;
  changelog: string;
}

export interface VersioningReport {
  /** Every breaking change found, recorded or not. */
  breaking: BreakingChange[];
  /** Those the changelog's "Unreleased" section does not list: the check fails on any. */
  unrecorded: BreakingChange[];
}

export function readSchemaFiles(dir: string): SchemaFiles {
  return {
    graphql: fs.readFileSync(path.join(dir, 'schema.graphql'), 'utf8'),
    openapi: fs.readFileSync(path.join(dir, 'openapi.json'), 'utf8'),
  };
}

/** The repository's own files: schema/published/ against schema/. */
export function repositoryInput(): VersioningInput {
  return {
    published: readSchemaFiles(path.join(SCHEMA_DIR, 'published')),
    current: readSchemaFiles(SCHEMA_DIR),
    changelog: fs.readFileSync(path.join(SCHEMA_DIR, 'CHANGELOG.md'), 'utf8'),
  };
}

/** Breaking SDL changes, keyed by inspector's path (`ComputedResult.id`, `Query.getResults.sessionId`). */
export async function graphQLBreakingChanges(
  before: string,
  after: string,
): Promise<BreakingChange[]> {
  const changes = await diff(buildSchema(before), buildSchema(after));
  return changes
    .filter((change) => change.criticality.level === CriticalityLevel.Breaking)
    .map((change) => ({ key: change.path ?? change.type, reason: change.message }));
}

/**
 * The keys the "Unreleased" section records: each list item that starts with code spans (one, or
 * several separated by commas) and has a description after them, as in
 * `` - `Query.getUserSet`, `Query.getQuizSet`: return typed pages ``.
 */
export function recordedKeys(changelog: string): Set<string> {
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((line) => /^##\s+Unreleased\b/i.test(line));
  const keys = new Set<string>();
  if (start < 0) return keys;
  for (const line of lines.slice(start + 1)) {
    if (/^##\s/.test(line)) break;
    const entry = /^\s*[-*]\s+((?:`[^`]+`\s*,\s*)*`[^`]+`)\s*[:—–-]\s*\S/.exec(line);
    for (const span of entry?.[1]?.match(/`[^`]+`/g) ?? []) keys.add(span.slice(1, -1).trim());
  }
  return keys;
}

export async function checkVersioning(input: VersioningInput): Promise<VersioningReport> {
  const breaking = [
    ...(await graphQLBreakingChanges(input.published.graphql, input.current.graphql)),
    ...openApiBreakingChanges(
      JSON.parse(input.published.openapi),
      JSON.parse(input.current.openapi),
    ),
  ];
  const recorded = recordedKeys(input.changelog);
  return { breaking, unrecorded: breaking.filter((change) => !recorded.has(change.key)) };
}

/** One line per unrecorded change, ready to paste into CHANGELOG.md and describe. */
export function formatUnrecorded(report: VersioningReport): string {
  const byKey = new Map<string, string[]>();
  for (const change of report.unrecorded) {
    byKey.set(change.key, [...(byKey.get(change.key) ?? []), change.reason]);
  }
  return [...byKey].map(([key, reasons]) => `- \`${key}\`: ${reasons.join('; ')}`).join('\n');
}
