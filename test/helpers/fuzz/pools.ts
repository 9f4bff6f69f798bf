/*
 * What the generators know of the running fixture: its ids, its data sets, its credentials.
 */

import type { QuestionType } from '../../../src/domain/questions/question-types';

export type ItemType =
  'user' | 'quiz' | 'userGroup' | 'computedResult' | 'questionStatistic' | 'quizStatistic';
const ITEM_TYPES: readonly ItemType[] = [
  'user',
  'quiz',
  'userGroup',
  'computedResult',
  'questionStatistic',
  'quizStatistic',
];

/** A question of a played quiz, as much as an answer to it needs. */
export interface AnsweredQuestion {
  type: QuestionType;
  nbPropositions: number;
}

/**
 * The session addAnswers writes to: made by the fuzz's teacher in the fixture, playing quizzes
 * of every question type, attended by the pupil, so that clean batches are stored.
 */
export interface AnsweringSession {
  sessionId: string;
  quizzes: { quizId: string; questions: AnsweredQuestion[] }[];
  /** The pupil's user id: an attendee, who writes their own answers. */
  attendeeId: string;
}

/** Ids of the fixture, as the API writes them (strings). */
export interface FuzzPools {
  quizIds: string[];
  userIds: string[];
  sessionIds: string[];
  /** Data sets made before the fuzz, by owner (a credentials label) and item type. */
  sets: Record<string, Record<ItemType, string[]>>;
  /** A set past its expiry. */
  expiredSetId: string;
  /** An id no row has. */
  unknownId: string;
  answering: AnsweringSession;
}

/**
 * Ids of sets for a parameter: mostly the owner's sets of the item type the parameter names (so
 * that clean requests often name a set they may use), then anyone's, then any set at all.
 */
export function setIds(pools: FuzzPools, owner?: string, itemType?: ItemType): string[] {
  const owners = Object.values(pools.sets);
  const all = [
    ...owners.flatMap((sets) => ITEM_TYPES.flatMap((type) => sets[type])),
    pools.expiredSetId,
  ];
  const mine = owner ? pools.sets[owner] : undefined;
  const pick = (sets: Record<ItemType, string[]>) =>
    itemType ? sets[itemType] : ITEM_TYPES.flatMap((type) => sets[type]);
  const owned = mine ? pick(mine) : [];
  const typed = owners.flatMap(pick);
  return [...owned, ...owned, ...owned, ...typed, ...all];
}

/**
 * Session ids for addAnswers: mostly the answering session, then the fixture's others (one the
 * fuzz's teacher owns and attends nothing of, one of another owner).
 */
export function answeringSessionIds(pools: FuzzPools): string[] {
  const { sessionId } = pools.answering;
  return [sessionId, sessionId, sessionId, sessionId, ...pools.sessionIds];
}

/** One way of presenting credentials: query-string pairs, or (GraphQL only) headers. */
export interface FuzzCredentials {
  label: string;
  pairs: [string, string][];
}

export interface WeightedCredentials {
  weight: number;
  credentials: FuzzCredentials;
  /** Credentials a client sends in the normal course (a valid key, maybe a valid token). */
  usual?: boolean;
  /** Whose sets these credentials may use: a key of FuzzPools.sets. */
  owner?: string;
}

/** The secrets of the fixture: its key, keys that must be refused, and tokens. */
export interface FixtureSecrets {
  key: string;
  otherHostKey: string;
  revokedKey: string;
  teacher: string;
  colleague: string;
  pupil: string;
  forOtherKey: string;
  expiring: string;
}

/** Every way the fuzz presents credentials, valid or not, weighted by how often it is drawn. */
export function fixtureCredentials(secrets: FixtureSecrets): WeightedCredentials[] {
  const withKey = (
    label: string,
    weight: number,
    accessToken?: string,
    owner?: string,
  ): WeightedCredentials => ({
    weight,
    usual: owner !== undefined,
    owner,
    credentials: {
      label,
      pairs: [
        ['apiKey', secrets.key],
        ...(accessToken === undefined ? [] : [['accessToken', accessToken]]),
      ] as [string, string][],
    },
  });
  const pairs = (label: string, weight: number, list: [string, string][]) => ({
    weight,
    credentials: { label, pairs: list },
  });
  return [
    withKey('teacher', 8, secrets.teacher, 'teacher'),
    withKey('colleague', 2, secrets.colleague, 'colleague'),
    withKey('pupil', 2, secrets.pupil, 'pupil'),
    withKey('anonymous', 4, undefined, 'anonymous'),
    withKey('unknown token', 1, 'not-a-token'),
    withKey('expired token', 1, secrets.expiring),
    withKey('token of another key', 1, secrets.forOtherKey),
    withKey('blank token', 1, ''),
    pairs('no credentials', 1, []),
    pairs('unknown key', 1, [['apiKey', 'qk_0000000000000000000000000000']]),
    pairs('key bound to another host', 1, [['apiKey', secrets.otherHostKey]]),
    pairs('revoked key', 1, [['apiKey', secrets.revokedKey]]),
    pairs('blank key', 1, [['apiKey', '']]),
    pairs('key with spaces', 1, [['apiKey', ` ${secrets.key} `]]),
    pairs('key twice', 1, [
      ['apiKey', secrets.key],
      ['apiKey', secrets.key],
    ]),
    pairs('token twice', 1, [
      ['apiKey', secrets.key],
      ['accessToken', secrets.teacher],
      ['accessToken', secrets.colleague],
    ]),
    pairs('token without key', 1, [['accessToken', secrets.teacher]]),
  ];
}
