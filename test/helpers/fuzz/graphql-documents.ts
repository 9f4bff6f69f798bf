import fc from 'fast-check';
import type { GraphQLArgument, RootFieldSpec } from './graphql-fields';
import { selectionOf } from './graphql-shapes';
import { anyJson } from './payloads';

/*
 * GraphQL documents asking one root field, its arguments inline or as variables.
 */

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A JS value as a GraphQL literal; strings named by the enum are written bare. */
function graphQLLiteral(value: unknown, enumValues?: readonly string[]): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    return enumValues?.includes(value) || (enumValues && NAME.test(value) && value !== 'null')
      ? value
      : JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return Number.isFinite(value as number) || typeof value === 'boolean' ? String(value) : 'null';
  }
  if (Array.isArray(value))
    return `[${value.map((item) => graphQLLiteral(item, enumValues)).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${NAME.test(key) ? key : JSON.stringify(key)}: ${graphQLLiteral(item)}`)
    .join(', ')}}`;
}

/** How one argument is passed: left out, as a variable (declared with some type), or inline. */
type ArgumentUse =
  | { mode: 'absent' }
  | { mode: 'variable'; declared: string; value: unknown; sent: boolean }
  | { mode: 'inline'; value: unknown };

const WRONG_TYPES = [
  'String',
  'Int',
  'ID',
  'ID!',
  'Boolean',
  '[ID]',
  'Float',
  'JSON',
  'QuizInput',
  'Nope',
];

/** How an argument is passed; a clean use declares the right type and sends a plausible value. */
function argumentUse(arg: GraphQLArgument, clean: boolean): fc.Arbitrary<ArgumentUse> {
  const value = clean
    ? arg.clean
    : fc.oneof({ weight: 5, arbitrary: arg.any }, { weight: 1, arbitrary: anyJson });
  const declared = clean
    ? fc.constant(arg.type)
    : fc.oneof(
        { weight: 8, arbitrary: fc.constant(arg.type) },
        { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) },
      );
  // A declared variable is now and then left out of `variables`.
  const sent = clean
    ? fc.constant(true)
    : fc.oneof(
        { weight: 9, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      );
  return fc.oneof(
    {
      weight: arg.type.endsWith('!') ? (clean ? 0 : 1) : 3,
      arbitrary: fc.constant<ArgumentUse>({ mode: 'absent' }),
    },
    {
      weight: 6,
      arbitrary: fc.tuple(declared, value, sent).map(([type, v, isSent]): ArgumentUse => ({
        mode: 'variable',
        declared: type,
        value: v,
        sent: isSent,
      })),
    },
    { weight: 3, arbitrary: value.map((v): ArgumentUse => ({ mode: 'inline', value: v })) },
  );
}

interface GraphQLDocument {
  query: string;
  variables: Record<string, unknown>;
  /** The response keys under which the root field is asked (its aliases, or its name). */
  keys: string[];
}

const DOCUMENT_BREAKERS = ['{', '}', '(', ')', '$', '@', '!', '"', '#', ':', '...', '\\', '\u0000'];

/** A document asking one root field in many shapes; a clean one is valid GraphQL. */
export function documentOf(spec: RootFieldSpec, clean: boolean): fc.Arbitrary<GraphQLDocument> {
  const names = Object.keys(spec.args);
  const sometimes = <T>(usual: T, odd: fc.Arbitrary<T>): fc.Arbitrary<T> =>
    clean
      ? fc.constant(usual)
      : fc.oneof({ weight: 9, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: odd });
  return fc
    .record({
      uses: fc.tuple(...names.map((name) => argumentUse(spec.args[name], clean))),
      selection: selectionOf(spec.returns, 2, clean),
      // How many times the field is asked, each under an alias or its own name.
      aliases: fc.array(
        fc.option(fc.constantFrom('a', 'b', 'c', 'first', 'getQuiz', 'data'), {
          freq: 2,
          nil: undefined,
        }),
        { minLength: 1, maxLength: 2 },
      ),
      operation: sometimes<string>(
        spec.operation,
        fc.constantFrom('query', 'mutation', 'subscription', ''),
      ),
      operationName: fc.option(fc.constantFrom('Fuzz', 'Q'), { nil: undefined }),
      wrapper: fc.constantFrom('none', 'none', 'none', 'inline', 'fragment', 'selectionFragment'),
      undeclared: sometimes('', fc.constantFrom('$nope: Int', '$x: [[String]]', '$y: Int = "a"')),
      typename: fc.boolean(),
      breaker: sometimes<[number, string] | undefined>(
        undefined,
        fc.tuple(fc.nat(), fc.constantFrom(...DOCUMENT_BREAKERS, 'cut')),
      ),
    })
    .map(
      ({
        uses,
        selection,
        aliases,
        operation,
        operationName,
        wrapper,
        undeclared,
        typename,
        breaker,
      }) => {
        const declarations: string[] = [];
        const variables: Record<string, unknown> = {};
        const args: string[] = [];
        uses.forEach((use, index) => {
          const name = names[index];
          if (use.mode === 'absent') return;
          if (use.mode === 'inline') {
            args.push(`${name}: ${graphQLLiteral(use.value, spec.args[name].enumValues)}`);
            return;
          }
          declarations.push(`$${name}: ${use.declared}`);
          args.push(`${name}: $${name}`);
          if (use.sent) variables[name] = use.value;
        });
        if (undeclared) declarations.push(undeclared);
        const argText = args.length > 0 ? `(${args.join(', ')})` : '';
        const rootType = spec.operation === 'mutation' ? 'Mutation' : 'Query';
        let fragments = '';
        let fieldSelection = selection;
        if (wrapper === 'selectionFragment') {
          fragments += ` fragment S on ${spec.returns.name} ${selection}`;
          fieldSelection = '{ ...S }';
        }
        const keys = aliases.map((alias) => alias ?? spec.name);
        let body = aliases
          .map((alias) => `${alias ? `${alias}: ` : ''}${spec.name}${argText} ${fieldSelection}`)
          .join(' ');
        if (wrapper === 'inline') body = `... on ${rootType} { ${body} }`;
        if (wrapper === 'fragment') {
          fragments += ` fragment R on ${rootType} { ${body} }`;
          body = '...R';
        }
        if (typename) body = `__typename ${body}`;
        const header = [
          operation,
          operationName,
          declarations.length > 0 ? `(${declarations.join(', ')})` : '',
        ]
          .filter(Boolean)
          .join(' ');
        let query = `${header} { ${body} }${fragments}`;
        if (breaker) {
          const [at, piece] = breaker;
          const position = at % (query.length + 1);
          query =
            piece === 'cut'
              ? query.slice(0, position)
              : `${query.slice(0, position)}${piece}${query.slice(position)}`;
        }
        return { query: query.trim(), variables, keys: [...new Set(keys)] };
      },
    );
}
