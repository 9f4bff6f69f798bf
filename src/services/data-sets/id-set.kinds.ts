import { userSetSubjects } from '../../db/sql/access-log.sql';
import type { UserView } from '../users/user.views';
import type { QuizView } from '../quizzes/quiz.views';
import { recordAccess } from '../access-log/access-log.service';
import type { SetKind } from '../sets/set-kind';
import { quizItems, userGroupItems, userItems, type UserGroupView } from './id-set.views';

/**
 * The kinds of sets of ids this folder makes (user-set.service, quiz-set.service): their members
 * are ids in data_set_items, pages give itemIds, and two sets of the same kind combine.
 */

const ID_PAGE = ['item_id AS id'];

export const USER_SET_KIND: SetKind<UserView> = {
  itemType: 'user',
  membersTable: 'data_set_items',
  pageColumns: ID_PAGE,
  members: 'ids',
  combinable: true,
  items: (ctx, page) => userItems(ctx, page.itemIds),
  // The export of a user set names its members (contract.md §14.6).
  recordExport: (ctx, dataSetId) => recordAccess(ctx, userSetSubjects(dataSetId)),
};

export const QUIZ_SET_KIND: SetKind<QuizView> = {
  itemType: 'quiz',
  membersTable: 'data_set_items',
  pageColumns: ID_PAGE,
  members: 'ids',
  combinable: true,
  items: (ctx, page) => quizItems(ctx, page.itemIds),
};

export const USER_GROUP_SET_KIND: SetKind<UserGroupView> = {
  itemType: 'userGroup',
  membersTable: 'data_set_items',
  pageColumns: ID_PAGE,
  members: 'ids',
  combinable: true,
  items: (ctx, page) => userGroupItems(ctx, page.itemIds),
};
