import type { Database } from './database';
import { Question, Quiz, QuizTag, UserQuizFlag } from './entities';
import { outboxEntry } from './sql/webhook-outbox.sql';

/** The columns of a new quiz; its id comes from the database. */
export type NewQuiz = Omit<Quiz, 'id' | 'author' | 'tags'>;

/** A question's row but for its quiz id and its own id (question-row.codec.ts). */
export type NewQuestion = Omit<Question, 'id' | 'quizId' | 'quiz'>;

/** What addQuiz writes: the quiz, its tags in order, its questions, and the author's flag. */
export interface QuizWrite {
  quiz: NewQuiz;
  tags: readonly string[];
  questions: readonly NewQuestion[];
  /** The author's favourite flag, when the payload sets one. */
  favorite?: boolean;
}

/**
 * Writes a quiz with its tags, questions and the author's flag in one transaction, with its
 * `quiz.created` event (contract.md §16).
 */
export function insertQuiz(db: Database, write: QuizWrite): Promise<Quiz> {
  return db.write.transaction(async (manager) => {
    const saved = await manager.getRepository(Quiz).save({ ...write.quiz });
    await manager
      .getRepository(QuizTag)
      .insert(write.tags.map((tag, position) => ({ quizId: saved.id, position, tag })));
    if (write.questions.length > 0) {
      await manager
        .getRepository(Question)
        .insert(write.questions.map((question) => ({ quizId: saved.id, ...question })));
    }
    if (write.favorite !== undefined) {
      await manager.getRepository(UserQuizFlag).insert({
        userId: write.quiz.authorId,
        quizId: saved.id,
        favorite: write.favorite,
        imported: false,
      });
    }
    const { authorId } = write.quiz;
    const event = outboxEntry(
      db.dialect,
      'quiz.created',
      saved.id,
      authorId,
      { quizId: saved.id },
      Date.now(),
    );
    await manager.query(event.sql, event.params);
    return saved;
  });
}
