import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The members of item analysis sets (contract.md §12), each at its 1-based position so that a
 * page is a range of the primary key.
 */

/** One question of a quiz of the quiz set, its title and type as they were when computed. */
@Entity('question_statistics')
export class QuestionStatisticItem {
  @PrimaryColumn({ type: 'int' })
  dataSetId!: number;

  @PrimaryColumn({ type: 'int' })
  position!: number;

  @Column({ type: 'int' })
  quizId!: number;

  /** 0-based place of the question in its quiz. */
  @Column({ type: 'int' })
  questionIndex!: number;

  @Column({ type: 'varchar', length: 250 })
  title!: string;

  @Column({ type: 'varchar', length: 40 })
  type!: string;

  @Column({ type: 'int' })
  nbAttempts!: number;

  @Column({ type: 'int' })
  nbAnswers!: number;

  /** Good answers to the question; null for a survey question. */
  @Column({ type: 'int', nullable: true })
  nbGoodAnswers!: number | null;

  @Column({ type: 'double', nullable: true })
  facility!: number | null;

  @Column({ type: 'double', nullable: true })
  discrimination!: number | null;

  /** JSON array of counts by proposition index (multiple choice), else null. */
  @Column({ type: 'varchar', length: 120, nullable: true })
  choiceCounts!: string | null;
}

/** One quiz of the quiz set. */
@Entity('quiz_statistics')
export class QuizStatisticItem {
  @PrimaryColumn({ type: 'int' })
  dataSetId!: number;

  @PrimaryColumn({ type: 'int' })
  position!: number;

  @Column({ type: 'int' })
  quizId!: number;

  @Column({ type: 'int' })
  nbAttempts!: number;

  @Column({ type: 'double', nullable: true })
  mean!: number | null;

  @Column({ type: 'double', nullable: true })
  median!: number | null;

  @Column({ type: 'double', nullable: true })
  stddev!: number | null;

  @Column({ type: 'double', nullable: true })
  cronbachAlpha!: number | null;

  /** JSON array of the 10 counts of goodAnswersPercent by tenth; null for a survey. */
  @Column({ type: 'varchar', length: 120, nullable: true })
  histogram!: string | null;
}
