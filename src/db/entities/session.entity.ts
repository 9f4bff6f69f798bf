import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { bool, datetime } from './column-types';
import { Quiz } from './quiz.entity';
import { User } from './user.entity';

/**
 * A classroom session: a teacher plays quizzes with attendees. `clientRef` is the classroom
 * app's own name for it (contract.md §9): unique per owner, so a repeated addSession finds it.
 */
@Entity('sessions')
@Index('uq_sessions_owner_client_ref', ['ownerId', 'clientRef'], { unique: true })
@Index('uq_sessions_join_code', ['joinCode'], { unique: true })
export class Session {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** Indexed for "sessions I own" (detailed results, known users, influence). */
  @Index('ix_sessions_owner')
  @Column({ type: 'int' })
  ownerId!: number;

  // Kept when the person is erased (a tombstone), for the pupils and colleagues who use it.
  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Relation<User>;

  @Column({ type: 'varchar', length: 250 })
  title!: string;

  @Column(datetime())
  startDate!: Date;

  /**
   * Null for sessions written without one (imports, older clients): NULLs never collide.
   * Compared as bytes: the MySQL migration gives it the utf8mb4_bin collation.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  clientRef!: string | null;

  /**
   * The code pupils join with (contract.md §9), shown to the owner only. Kept as it is, not
   * hashed: the owner is shown it again (getSession), and it is a short-lived capability that
   * only makes its bearer an attendee, guessed no faster than the per-user limit on failed joins
   * allows. Unique while stored, expired ones included (a new code never collides with an old
   * one); null for a session that never had one (made before join codes, or imported).
   */
  @Column({ type: 'varchar', length: 8, nullable: true })
  joinCode!: string | null;

  @Column(datetime({ nullable: true }))
  joinCodeExpiresAt!: Date | null;
}

/**
 * A session's change marker (contract.md §10): every addAnswers that stores something bumps
 * `version` in its own transaction, so an instance watching the session sees that results
 * changed by reading this row, whichever instance wrote them.
 */
@Entity('session_changes')
export class SessionChange {
  @PrimaryColumn({ type: 'int' })
  sessionId!: number;

  @Column({ type: 'int', default: 0 })
  version!: number;

  @Column(datetime())
  changedAt!: Date;

  @ManyToOne(() => Session, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: Relation<Session>;
}

@Entity('session_attendees')
export class SessionAttendee {
  /** The primary key (session, user) serves "attendees of a session". */
  @PrimaryColumn({ type: 'int' })
  sessionId!: number;

  /** Indexed for "sessions a user attended" (quiz visibility, known users, player filter). */
  @Index('ix_session_attendees_user')
  @PrimaryColumn({ type: 'int' })
  userId!: number;

  @Column(bool({ default: false }))
  raisedHand!: boolean;

  @ManyToOne(() => Session, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: Relation<Session>;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;
}

@Entity('session_quizzes')
export class SessionQuiz {
  /** The primary key (session, quiz) serves "quizzes of a session". */
  @PrimaryColumn({ type: 'int' })
  sessionId!: number;

  /** Indexed for "sessions that played a quiz" (nbSessions, private quiz visibility). */
  @Index('ix_session_quizzes_quiz')
  @PrimaryColumn({ type: 'int' })
  quizId!: number;

  @ManyToOne(() => Session, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: Relation<Session>;

  @ManyToOne(() => Quiz, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quiz_id' })
  quiz?: Relation<Quiz>;
}
