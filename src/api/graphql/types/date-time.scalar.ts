import { GraphQLScalarType, Kind } from 'graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { describe, wireDateTime } from '../../../domain/validation/checks';

const EXPECTED =
  'expected an ISO 8601 date-time such as "2026-11-02T09:00:00Z", or "YYYY-MM-DD hh:mm:ss" in UTC';

/** The service keeps datetimes to the second, as REST writes them (contract.md §1). */
function toSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function readDateTime(value: unknown): Date {
  if (typeof value === 'string') {
    const wire = wireDateTime(value);
    if (wire) return wire;
    try {
      return toSecond(DateTimeISOResolver.parseValue(value) as Date);
    } catch {
      // Neither form: refused below with the one sentence that names both.
    }
  }
  throw new TypeError(`${EXPECTED}, got ${describe(value)}`);
}

/**
 * One datetime scalar on input and output (contract.md §15): answers are ISO 8601 strings in UTC
 * (graphql-scalars' DateTimeISO); inputs take ISO 8601 with any offset, and the wire form of
 * REST (`YYYY-MM-DD hh:mm:ss`, UTC), which documents written before this scalar send.
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTimeISO',
  description:
    'A date-time. Answers: an ISO 8601 string in UTC, such as 2026-11-02T09:00:00.000Z. Inputs: ' +
    "ISO 8601 with an offset (2026-11-02T09:00:00Z, 2026-11-02T10:00:00+01:00), or REST's " +
    '"2026-11-02 09:00:00" read as UTC; fractions of a second are dropped.',
  serialize: (value) => DateTimeISOResolver.serialize(value) as string,
  parseValue: readDateTime,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new TypeError(`${EXPECTED}, got a ${ast.kind}`);
    return readDateTime(ast.value);
  },
});
