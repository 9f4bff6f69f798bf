import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { bool, datetime } from './column-types';
import { Question } from './question.entity';
import { Quiz } from './quiz.entity';
import { Session } from './session.entity';
import { User } from './user.entity';

/**
 * One user's answer to one question in one session, scored when written.
 *
 * Results group answers into attempts (user, quiz, session) and count good ones, first and last
 * answer time. The two composite indexes hold every column those queries read, so they are
 * answered from the index alone:
 * - by user first, for a user set joined to the answers (a set of 100 users reads 100 ranges);
 * - by quiz first, for a quiz set and for everything "per quiz" (percentiles rank per quiz).
 * The unique key (session, user, question) makes writes idempotent and serves "answers of a session".
 */
@Entity('answers')
@Index('uq_answers_session_user_question', ['sessionId', 'userId', 'questionId'], { unique: true })
@Index('ix_answers_user_quiz', ['userId', 'quizId', 'sessionId', 'good', 'answeredAt'])
@Index('ix_answers_quiz_user', ['quizId', 'userId', 'sessionId', 'good', 'answeredAt'])
export class Answer {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'int' })
  sessionId!: number;

  @Column({ type: 'int' })
  userId!: number;

  /** The question's quiz, kept here so results never join the questions table. */
  @Column({ type: 'int' })
  quizId!: number;

  @Column({ type: 'int' })
  questionId!: number;

  /** JSON of the answer as given, normalised (index, indexes, boolean, string, decimal string). */
  @Column({ type: 'text' })
  value!: string;

  /** Decided at write time by the scoring module; null for survey questions. */
  @Column(bool({ nullable: true }))
  good!: boolean | null;

  @Column(datetime())
  answeredAt!: Date;

  @ManyToOne(() => Session, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: Relation<Session>;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @ManyToOne(() => Quiz, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quiz_id' })
  quiz?: Relation<Quiz>;

  @ManyToOne(() => Question, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'question_id' })
  question?: Relation<Question>;
}
