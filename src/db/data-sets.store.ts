import type { Database } from './database';
import { DataSet } from './entities/data-set.entity';

/** The columns a new data set is made with; its id comes from the database when it is written. */
export type NewDataSet = Omit<DataSet, 'id'>;

/** A data set not yet written: the set writers insert it with its members, in one transaction. */
export function newDataSet(db: Database, fields: NewDataSet): DataSet {
  return db.write.getRepository(DataSet).create(fields);
}
