import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import type { MediaType, QuestionType } from '../../domain/questions/question-types';
import { bool } from './column-types';
import { Quiz } from './quiz.entity';

@Entity('questions')
/** A quiz's questions are read in order; (quiz, position) is also the natural key bulk loads use. */
@Index('uq_questions_quiz_position', ['quizId', 'position'], { unique: true })
export class Question {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'int' })
  quizId!: number;

  @ManyToOne(() => Quiz, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quiz_id' })
  quiz?: Relation<Quiz>;

  /** 0-based place of the question in its quiz. */
  @Column({ type: 'int' })
  position!: number;

  @Column({ type: 'varchar', length: 40 })
  type!: QuestionType;

  @Column({ type: 'varchar', length: 250 })
  title!: string;

  @Column({ type: 'varchar', length: 10, nullable: true })
  mediaType!: MediaType | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  mediaUrl!: string | null;

  /** JSON array of strings for the multiple-choice types, else null. Text, so keyword search can reach it. */
  @Column({ type: 'text', nullable: true })
  propositions!: string | null;

  /** JSON of the good answer (index, indexes, boolean, string, or a decimal string); null in surveys. */
  @Column({ type: 'text', nullable: true })
  goodAnswer!: string | null;

  @Column({ type: 'smallint', nullable: true })
  tolerance!: number | null;

  @Column(bool({ nullable: true }))
  caseSensitive!: boolean | null;
}
