import type {
  DataSetItem,
  DataSetPage,
  DataSetRef,
  DateIntervalParam,
  DateValue,
  GetStatisticsParams,
  Quiz,
  Session,
  User,
  UserGroup,
} from './types';
import type { WireSchema } from './wire.types';

/** The service's wire format: datetimes as text, set references, query strings. */

/** A query parameter value; lists are sent comma-separated, dates as `YYYY-MM-DD hh:mm:ss` UTC. */
export type ParameterValue = string | number | boolean | Date | readonly (string | number)[];

export type RequestParameters = Readonly<Record<string, ParameterValue | undefined>>;

// The JSON the service sends, before dates are parsed (the generated wire types).
export type WireQuiz = WireSchema<'Quiz'>;
export type WireSession = WireSchema<'Session'>;
export type WireItem = User | WireQuiz | UserGroup | Record<string, unknown>;
export type WirePage = Omit<DataSetPage, 'items'> & { items: WireItem[] };
export type WireAttribute = WireSchema<'ItemAttribute'>;

/** Attributes whose value is a datetime. */
export const DATE_ATTRIBUTES: ReadonlySet<string> = new Set(['creationDate', 'lastChangeDate']);

/** `YYYY-MM-DD hh:mm:ss` (UTC on the wire) as a Date. */
export function parseWireDate(text: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new TypeError(`not a datetime of the quiz API: ${JSON.stringify(text)}`);
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map(Number);
  return new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
}

/** A Date as the service reads datetimes: `YYYY-MM-DD hh:mm:ss` in UTC. */
export function formatWireDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function dateText(value: DateValue): string {
  return value instanceof Date ? formatWireDate(value) : value;
}

/** `start,end` or one value (contract.md §1). */
export function dateInterval(value: DateIntervalParam | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' || value instanceof Date) return dateText(value);
  return value.to === undefined
    ? dateText(value.from)
    : `${dateText(value.from)},${dateText(value.to)}`;
}

export function setId(ref: DataSetRef | undefined): string | undefined {
  if (ref === undefined) return undefined;
  return typeof ref === 'object' ? ref.dataSetId : String(ref);
}

/** The query parameters of both item analysis operations. */
export function statisticsParams(params: GetStatisticsParams): RequestParameters {
  return {
    userSetId: setId(params.userSetId),
    quizSetId: setId(params.quizSetId),
    sessionIds: params.sessionIds,
    sessionId: params.sessionId,
    numberOfItemsPerPage: params.numberOfItemsPerPage,
  };
}

export function parseQuiz(quiz: WireQuiz): Quiz {
  return {
    ...quiz,
    creationDate: parseWireDate(quiz.creationDate),
    lastChangeDate: parseWireDate(quiz.lastChangeDate),
  };
}

export function parseSession(session: WireSession): Session {
  const { joinCodeExpiresAt, ...rest } = session;
  return {
    ...rest,
    startDate: parseWireDate(session.startDate),
    ...(joinCodeExpiresAt === undefined
      ? {}
      : { joinCodeExpiresAt: parseWireDate(joinCodeExpiresAt) }),
  };
}

export function parseItem(itemType: DataSetPage['itemType'], item: WireItem): DataSetItem {
  // Only quizzes carry datetimes; users, groups and results are plain JSON already.
  return itemType === 'quiz' ? parseQuiz(item as WireQuiz) : (item as DataSetItem);
}

export function queryString(params: RequestParameters): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (value instanceof Date) query.set(name, formatWireDate(value));
    else if (Array.isArray(value)) query.set(name, value.join(','));
    else query.set(name, String(value));
  }
  return query.toString();
}
