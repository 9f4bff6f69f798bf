import { dialectNamed } from '../../src/db/sql/dialect';

const mysql = dialectNamed('mysql');
const sqlite = dialectNamed('sqlite');

describe('dialect members for bulk writes', () => {
  it('quotes identifiers as each family does, doubling the quote inside', () => {
    expect(mysql.quote('answers')).toBe('`answers`');
    expect(sqlite.quote('answers')).toBe('"answers"');
    expect(mysql.quote('odd`name')).toBe('`odd``name`');
    expect(sqlite.quote('odd"name')).toBe('"odd""name"');
  });

  it('writes a multi-row INSERT with one placeholder per value', () => {
    expect(mysql.insertRows('quiz_tags', ['quiz_id', 'position', 'tag'], 2)).toBe(
      'INSERT INTO `quiz_tags` (`quiz_id`,`position`,`tag`) VALUES (?,?,?),(?,?,?)',
    );
    expect(sqlite.insertRows('sessions', ['title'], 1)).toBe(
      'INSERT INTO "sessions" ("title") VALUES (?)',
    );
  });

  it('reads the generated id of either driver', () => {
    expect(sqlite.insertId(7)).toBe(7);
    expect(sqlite.insertId(BigInt(8))).toBe(8);
    expect(mysql.insertId({ insertId: 9, affectedRows: 1 })).toBe(9);
    expect(() => mysql.insertId([])).toThrow('the database returned no id for an INSERT');
  });
});
