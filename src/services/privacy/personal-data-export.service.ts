import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import {
  accessLogPage,
  answersPage,
  apiKeysPage,
  attendancesPage,
  authoredQuizzesPage,
  dataSetsPage,
  memberGroupsPage,
  ownedGroupsPage,
  ownedSessionsPage,
  personalAnswerCount,
  personalProfile,
  personalUserLookup,
  quizFlagsPage,
  rowBool,
  rowBoolOrNull,
  rowDate,
  rowDateOrNull,
  type PersonalPage,
} from '../../db/sql/personal-data.sql';
import { personalWebhooksPage } from '../../db/sql/webhook-endpoint.sql';
import { eventTypesOf } from '../webhooks/webhook.views';
import { Errors } from '../../errors';
import { recordAccess, subjectsById } from '../access-log/access-log.service';
import type {
  AccessLogEntryView,
  AttendanceView,
  AuthoredQuizView,
  MemberGroupView,
  OwnedGroupView,
  OwnedSessionView,
  PersonalAnswerView,
  PersonalApiKeyView,
  PersonalDataDocument,
  PersonalDataExport,
  PersonalDataSetView,
  PersonalList,
  PersonalProfileView,
  PersonalWebhookView,
  QuizFlagView,
} from './personal-data.views';
import { normalizeEmail } from '../auth/login.service';

/**
 * A person's export (contract.md §14.3): everything the service holds about one user. The
 * profile is read at once; every list is read a keyset page at a time, only when the previous
 * page was taken, so a writer that streams the document (REST, CLI) holds one page in memory
 * whatever the person's history. GraphQL answers are built whole (readPersonalData).
 */

/** Rows per keyset page of a list. */
export const PERSONAL_PAGE_SIZE = 1000;

type Row = Record<string, unknown>;

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** JSON text kept in a column (an answer's value, a set's parameters), as the value it holds. */
function jsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  try {
    return JSON.parse(String(value)) as unknown;
  } catch {
    // Kept as written rather than lost: the person is owed what is held, parsable or not.
    return String(value);
  }
}

function listOf<T>(
  ctx: RequestContext,
  userId: number,
  page: PersonalPage,
  view: (row: Row) => T,
  pageSize: number,
): PersonalList<T> {
  return async function* pages() {
    let after = 0;
    for (;;) {
      const { sql, params } = page(userId, after, pageSize);
      // The write handle: the entry this export wrote in the access log is read back at once.
      const rows = await ctx.db.writeRows.rows<Row>(sql, params);
      if (rows.length > 0) {
        after = toNumber(rows[rows.length - 1]?.k);
        yield rows.map(view);
      }
      if (rows.length < pageSize) return;
    }
  };
}

function profileView(row: Row): PersonalProfileView {
  return {
    id: toNumber(row.id),
    email: text(row.email),
    firstName: text(row.first_name),
    lastName: text(row.last_name),
    pictureURL: text(row.picture_url),
    publicProfile: rowBool(row.public_profile),
    canCreatePrivateQuizzes: rowBool(row.can_create_private_quizzes),
    createdAt: rowDate(row.created_at),
  };
}

const ownedGroup = (row: Row): OwnedGroupView => ({
  id: toNumber(row.k),
  name: String(row.name),
  nbMembers: toNumber(row.nb_members),
  createdAt: rowDate(row.created_at),
});

const memberGroup = (row: Row): MemberGroupView => ({
  id: toNumber(row.k),
  name: String(row.name),
  ownerId: toNumber(row.owner_id),
});

const attendance = (row: Row): AttendanceView => ({
  sessionId: toNumber(row.k),
  title: String(row.title),
  startDate: rowDate(row.start_date),
  raisedHand: rowBool(row.raised_hand),
});

const answer = (row: Row): PersonalAnswerView => ({
  id: toNumber(row.k),
  sessionId: toNumber(row.session_id),
  quizId: toNumber(row.quiz_id),
  questionIndex: toNumber(row.question_index),
  value: jsonValue(row.value),
  good: rowBoolOrNull(row.good),
  answeredAt: rowDate(row.answered_at),
});

const quizFlag = (row: Row): QuizFlagView => ({
  quizId: toNumber(row.k),
  favorite: rowBool(row.favorite),
  imported: rowBool(row.imported),
});

const authoredQuiz = (row: Row): AuthoredQuizView => ({
  id: toNumber(row.k),
  title: String(row.title),
  visibility: String(row.visibility),
  survey: rowBool(row.survey),
  nbQuestions: toNumber(row.nb_questions),
  creationDate: rowDate(row.creation_date),
  lastChangeDate: rowDate(row.last_change_date),
});

const ownedSession = (row: Row): OwnedSessionView => ({
  id: toNumber(row.k),
  title: String(row.title),
  startDate: rowDate(row.start_date),
  clientRef: text(row.client_ref),
  nbAttendees: toNumber(row.nb_attendees),
});

const apiKey = (row: Row): PersonalApiKeyView => ({
  id: toNumber(row.k),
  keyPrefix: String(row.key_prefix),
  host: String(row.host),
  label: String(row.label ?? ''),
  createdAt: rowDate(row.created_at),
  revokedAt: rowDateOrNull(row.revoked_at),
  lastUsedAt: rowDateOrNull(row.last_used_at),
});

const webhook = (row: Row): PersonalWebhookView => ({
  id: toNumber(row.k),
  url: String(row.url),
  events: eventTypesOf(String(row.events)),
  createdAt: rowDate(row.created_at),
  disabledAt: rowDateOrNull(row.disabled_at),
  disabledReason: text(row.disabled_reason),
});

const dataSet = (row: Row): PersonalDataSetView => ({
  id: toNumber(row.k),
  itemType: String(row.item_type),
  totalNumberOfItems: toNumber(row.total_number_of_items),
  parameters: jsonValue(row.parameters),
  createdAt: rowDate(row.created_at),
  expiresAt: rowDate(row.expires_at),
});

const accessLogEntry = (row: Row): AccessLogEntryView => ({
  accessedAt: rowDate(row.accessed_at),
  operation: String(row.operation),
  requesterUserId: row.requester_user_id === null ? null : toNumber(row.requester_user_id),
  requesterApiKeyId: row.requester_api_key_id === null ? null : toNumber(row.requester_api_key_id),
  requestId: String(row.request_id),
});

async function exportOf(
  ctx: RequestContext,
  userId: number,
  pageSize: number,
): Promise<PersonalDataExport> {
  const profile = await ctx.db.writeRows.rows<Row>(
    personalProfile(userId).sql,
    personalProfile(userId).params,
  );
  const row = profile[0];
  if (!row) throw Errors.notFound(ctx.operation, 'userId', String(userId), 'no such user');
  const count = personalAnswerCount(userId);
  const [{ n } = { n: 0 }] = await ctx.db.writeRows.rows<{ n: unknown }>(count.sql, count.params);
  // Nothing is written before the request was let through (rate limit): a refused export
  // leaves no entry. The entry is written first, so the export lists it.
  await ctx.admission.wait();
  await recordAccess(ctx, subjectsById([userId]));
  const exportedAt = new Date();
  const list = <T>(page: PersonalPage, view: (r: Row) => T) =>
    listOf(ctx, userId, page, view, pageSize);
  return {
    userId,
    exportedAt,
    nbAnswers: toNumber(n),
    profile: profileView(row),
    groups: {
      owned: list(ownedGroupsPage, ownedGroup),
      memberOf: list(memberGroupsPage, memberGroup),
    },
    attendances: list(attendancesPage, attendance),
    answers: list(answersPage(ctx.db.dialect), answer),
    quizFlags: list(quizFlagsPage, quizFlag),
    quizzes: list(authoredQuizzesPage, authoredQuiz),
    sessions: list(ownedSessionsPage, ownedSession),
    apiKeys: list(apiKeysPage, apiKey),
    webhooks: list(personalWebhooksPage, webhook),
    dataSets: list(dataSetsPage(ctx.db.dialect.date(exportedAt)), dataSet),
    accessLog: list(accessLogPage, accessLogEntry),
  };
}

/**
 * exportPersonalData: the token's user's own data, whoever else they are. Anonymous requests
 * are refused by the operation's token rule before this runs.
 */
export function exportPersonalData(
  ctx: RequestContext,
  options: { pageSize?: number } = {},
): Promise<PersonalDataExport> {
  const { requester } = ctx;
  if (requester.kind !== 'user') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required');
  }
  return exportOf(ctx, requester.userId, options.pageSize ?? PERSONAL_PAGE_SIZE);
}

/** `cli user:export --user <id|email>`: an operator names the person by id or email. */
export async function exportPersonalDataOf(
  ctx: RequestContext,
  user: string,
  options: { pageSize?: number } = {},
): Promise<PersonalDataExport> {
  const ref = user.trim();
  // Emails are stored normalised (lower case): the same person whatever the operator typed.
  const lookup = personalUserLookup(
    /^\d+$/.test(ref) ? { id: Number(ref) } : { email: normalizeEmail(ref) },
  );
  const [found] = await ctx.db.writeRows.rows<{ id: unknown }>(lookup.sql, lookup.params);
  // The reason names the parameter only: an email is not repeated (nor logged).
  if (!found) throw Errors.notFound(ctx.operation, 'user', ref, 'no such user');
  return exportOf(ctx, toNumber(found.id), options.pageSize ?? PERSONAL_PAGE_SIZE);
}

async function readAll<T>(list: PersonalList<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of list()) items.push(...page);
  return items;
}

/** The whole document in memory (GraphQL answers are built whole; large exports: REST, CLI). */
export async function readPersonalData(data: PersonalDataExport): Promise<PersonalDataDocument> {
  return {
    exportedAt: data.exportedAt,
    profile: data.profile,
    groups: {
      owned: await readAll(data.groups.owned),
      memberOf: await readAll(data.groups.memberOf),
    },
    attendances: await readAll(data.attendances),
    answers: await readAll(data.answers),
    quizFlags: await readAll(data.quizFlags),
    quizzes: await readAll(data.quizzes),
    sessions: await readAll(data.sessions),
    apiKeys: await readAll(data.apiKeys),
    webhooks: await readAll(data.webhooks),
    dataSets: await readAll(data.dataSets),
    accessLog: await readAll(data.accessLog),
  };
}
