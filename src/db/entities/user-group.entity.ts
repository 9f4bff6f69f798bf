import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { datetime } from './column-types';
import { User } from './user.entity';

@Entity('user_groups')
/** getUserGroupSet filters the owner's groups by name prefix. */
@Index('ix_user_groups_owner_name', ['ownerId', 'name'])
export class UserGroup {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'int' })
  ownerId!: number;

  // Kept when the person is erased (a tombstone), for the pupils and colleagues who use it.
  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Relation<User>;

  @CreateDateColumn(datetime())
  createdAt!: Date;
}

@Entity('user_group_members')
export class UserGroupMember {
  /** The primary key (group, user) serves "members of a group". */
  @PrimaryColumn({ type: 'int' })
  groupId!: number;

  /** Indexed for "groups a user belongs to" and "users known to a group owner". */
  @Index('ix_user_group_members_user')
  @PrimaryColumn({ type: 'int' })
  userId!: number;

  @ManyToOne(() => UserGroup, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: Relation<UserGroup>;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;
}
