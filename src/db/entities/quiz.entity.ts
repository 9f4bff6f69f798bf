import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { bool, datetime } from './column-types';
import type { QuizVisibility } from '../../domain/quizzes/quiz.rules';
import { User } from './user.entity';

@Entity('quizzes')
/** Quiz sets filter by visibility with a date interval (anonymous requesters see public only). */
@Index('ix_quizzes_visibility_creation', ['visibility', 'creationDate'])
@Index('ix_quizzes_last_change', ['lastChangeDate'])
export class Quiz {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** Indexed for the author filter and "quizzes from my account". */
  @Index('ix_quizzes_author')
  @Column({ type: 'int' })
  authorId!: number;

  // Kept when the person is erased (a tombstone), for the pupils and colleagues who use it.
  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'author_id' })
  author?: Relation<User>;

  @Column({ type: 'varchar', length: 250 })
  title!: string;

  @Column({ type: 'varchar', length: 10 })
  visibility!: QuizVisibility;

  @Column(bool({ default: false }))
  survey!: boolean;

  /** As given (H:M:S, M:S or S); null when none was given. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  defaultDuration!: string | null;

  /** Kept with the quiz because goodAnswersPercent divides by it for every attempt. */
  @Column({ type: 'int', default: 0 })
  nbQuestions!: number;

  @Column(datetime())
  creationDate!: Date;

  @Column(datetime())
  lastChangeDate!: Date;

  @OneToMany(() => QuizTag, (tag) => tag.quiz)
  tags?: Relation<QuizTag[]>;
}

@Entity('quiz_tags')
/** The tag filter looks quizzes up by tag. */
@Index('ix_quiz_tags_tag', ['tag', 'quizId'])
export class QuizTag {
  @PrimaryColumn({ type: 'int' })
  quizId!: number;

  /** Tags keep the order they were given in. */
  @PrimaryColumn({ type: 'int' })
  position!: number;

  @Column({ type: 'varchar', length: 100 })
  tag!: string;

  @ManyToOne(() => Quiz, (quiz) => quiz.tags, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quiz_id' })
  quiz?: Relation<Quiz>;
}
