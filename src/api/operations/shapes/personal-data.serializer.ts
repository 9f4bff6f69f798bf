import type {
  AccessLogEntryView,
  AttendanceView,
  AuthoredQuizView,
  MemberGroupView,
  OwnedGroupView,
  OwnedSessionView,
  PersonalAnswerView,
  PersonalApiKeyView,
  PersonalDataExport,
  PersonalDataSetView,
  PersonalList,
  PersonalProfileView,
  PersonalWebhookView,
  QuizFlagView,
} from '../../../services/privacy/personal-data.views';
import type { RestDownload } from './download';
import { legacyDate, legacyId } from './legacy-format';

/**
 * The JSON of exportPersonalData (contract.md §14.3) as REST and the CLI write it: field names as
 * the rest of the API, ids as strings, datetimes `YYYY-MM-DD hh:mm:ss` UTC. The document is
 * written a page at a time (personal-data-export.service.ts): its text is never whole in memory.
 */

export const PERSONAL_DATA_TYPE = 'application/json; charset=utf-8';

const idOrNull = (id: number | null): string | null => (id === null ? null : legacyId(id));
const dateOrNull = (date: Date | null): string | null => (date === null ? null : legacyDate(date));

export const serializeProfile = (p: PersonalProfileView) => ({
  id: legacyId(p.id),
  email: p.email,
  firstName: p.firstName,
  lastName: p.lastName,
  pictureURL: p.pictureURL,
  publicProfile: p.publicProfile,
  canCreatePrivateQuizzes: p.canCreatePrivateQuizzes,
  createdAt: legacyDate(p.createdAt),
});

const ownedGroup = (g: OwnedGroupView) => ({
  id: legacyId(g.id),
  name: g.name,
  nbMembers: g.nbMembers,
  createdAt: legacyDate(g.createdAt),
});

const memberGroup = (g: MemberGroupView) => ({
  id: legacyId(g.id),
  name: g.name,
  ownerId: legacyId(g.ownerId),
});

const attendance = (a: AttendanceView) => ({
  sessionId: legacyId(a.sessionId),
  title: a.title,
  startDate: legacyDate(a.startDate),
  raisedHand: a.raisedHand,
});

const answer = (a: PersonalAnswerView) => ({
  id: legacyId(a.id),
  sessionId: legacyId(a.sessionId),
  quizId: legacyId(a.quizId),
  questionIndex: a.questionIndex,
  value: a.value,
  good: a.good,
  answeredAt: legacyDate(a.answeredAt),
});

const quizFlag = (f: QuizFlagView) => ({
  quizId: legacyId(f.quizId),
  favorite: f.favorite,
  imported: f.imported,
});

const quiz = (q: AuthoredQuizView) => ({
  id: legacyId(q.id),
  title: q.title,
  visibility: q.visibility,
  survey: q.survey,
  nbQuestions: q.nbQuestions,
  creationDate: legacyDate(q.creationDate),
  lastChangeDate: legacyDate(q.lastChangeDate),
});

const session = (s: OwnedSessionView) => ({
  id: legacyId(s.id),
  title: s.title,
  startDate: legacyDate(s.startDate),
  clientRef: s.clientRef,
  nbAttendees: s.nbAttendees,
});

const apiKey = (k: PersonalApiKeyView) => ({
  id: legacyId(k.id),
  keyPrefix: k.keyPrefix,
  host: k.host,
  label: k.label,
  createdAt: legacyDate(k.createdAt),
  revokedAt: dateOrNull(k.revokedAt),
  lastUsedAt: dateOrNull(k.lastUsedAt),
});

const webhook = (w: PersonalWebhookView) => ({
  id: legacyId(w.id),
  url: w.url,
  events: w.events,
  createdAt: legacyDate(w.createdAt),
  disabledAt: dateOrNull(w.disabledAt),
  disabledReason: w.disabledReason,
});

const dataSet = (d: PersonalDataSetView) => ({
  id: legacyId(d.id),
  itemType: d.itemType,
  totalNumberOfItems: d.totalNumberOfItems,
  parameters: d.parameters ?? null,
  createdAt: legacyDate(d.createdAt),
  expiresAt: legacyDate(d.expiresAt),
});

const accessLogEntry = (e: AccessLogEntryView) => ({
  accessedAt: legacyDate(e.accessedAt),
  operation: e.operation,
  requesterUserId: idOrNull(e.requesterUserId),
  requesterApiKeyId: idOrNull(e.requesterApiKeyId),
  requestId: e.requestId,
});

/** A part of the document: a value written at once, a list written page by page, or an object. */
type Part =
  | { value: unknown }
  | { list: PersonalList<unknown>; item: (view: never) => unknown }
  | { fields: readonly (readonly [string, Part])[] };

const list = <T>(pages: PersonalList<T>, item: (view: T) => unknown): Part => ({
  list: pages as PersonalList<unknown>,
  item: item as (view: never) => unknown,
});

/** The document's parts, in the order it is written. */
function documentParts(data: PersonalDataExport): Part {
  return {
    fields: [
      ['exportedAt', { value: legacyDate(data.exportedAt) }],
      ['profile', { value: serializeProfile(data.profile) }],
      [
        'groups',
        {
          fields: [
            ['owned', list(data.groups.owned, ownedGroup)],
            ['memberOf', list(data.groups.memberOf, memberGroup)],
          ],
        },
      ],
      ['attendances', list(data.attendances, attendance)],
      ['answers', list(data.answers, answer)],
      ['quizFlags', list(data.quizFlags, quizFlag)],
      ['quizzes', list(data.quizzes, quiz)],
      ['sessions', list(data.sessions, session)],
      ['apiKeys', list(data.apiKeys, apiKey)],
      ['webhooks', list(data.webhooks, webhook)],
      ['dataSets', list(data.dataSets, dataSet)],
      ['accessLog', list(data.accessLog, accessLogEntry)],
    ],
  };
}

/**
 * The text of a part, in chunks: one per page of a list, the punctuation and values between
 * pages carried into the next chunk. `out.pending` is what is written but not yet yielded.
 */
async function* partText(part: Part, out: { pending: string }): AsyncGenerator<string> {
  if ('value' in part) {
    out.pending += JSON.stringify(part.value);
  } else if ('list' in part) {
    out.pending += '[';
    let first = true;
    for await (const page of part.list()) {
      const items = page.map((view) => JSON.stringify(part.item(view as never)));
      if (items.length === 0) continue;
      yield `${out.pending}${first ? '' : ','}${items.join(',')}`;
      out.pending = '';
      first = false;
    }
    out.pending += ']';
  } else {
    out.pending += '{';
    let first = true;
    for (const [name, field] of part.fields) {
      out.pending += `${first ? '' : ','}${JSON.stringify(name)}:`;
      first = false;
      yield* partText(field, out);
    }
    out.pending += '}';
  }
}

/** The document's JSON text, a page of a list at a time. */
export async function* personalDataText(data: PersonalDataExport): AsyncGenerator<string> {
  const out = { pending: '' };
  yield* partText(documentParts(data), out);
  yield `${out.pending}\n`;
}

/** exportPersonalData on REST: the document as an attachment, streamed. */
export function personalDataDownload(data: PersonalDataExport): RestDownload {
  return {
    contentType: PERSONAL_DATA_TYPE,
    fileName: `personal-data-${data.userId}.json`,
    items: data.nbAnswers,
    body: personalDataText(data),
  };
}
