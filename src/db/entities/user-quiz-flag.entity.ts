import {
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  Column,
  type Relation,
} from 'typeorm';
import { bool } from './column-types';
import { Quiz } from './quiz.entity';
import { User } from './user.entity';

/** What a quiz is to one user: favorite, imported into their account. */
@Entity('user_quiz_flags')
export class UserQuizFlag {
  @PrimaryColumn({ type: 'int' })
  userId!: number;

  /** Indexed for nbFavorites of a quiz. */
  @Index('ix_user_quiz_flags_quiz')
  @PrimaryColumn({ type: 'int' })
  quizId!: number;

  @Column(bool({ default: false }))
  favorite!: boolean;

  @Column(bool({ default: false }))
  imported!: boolean;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @ManyToOne(() => Quiz, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quiz_id' })
  quiz?: Relation<Quiz>;
}
