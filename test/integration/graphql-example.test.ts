import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { graphQLSchema } from '../../src/api/graphql/graphql.schema';
import { EXAMPLE_DOCUMENT, EXAMPLE_VARIABLES } from '../../src/api/docs/graphql-example';

describe("the IDEs' example (no placeholder variables)", () => {
  const operations = parse(EXAMPLE_DOCUMENT).definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );

  it('starts with variables that its operations declare and the schema accepts', async () => {
    const schema = await graphQLSchema();
    for (const name of Object.keys(EXAMPLE_VARIABLES)) {
      const declaring = operations.filter((op) =>
        op.variableDefinitions?.some((v) => v.variable.name.value === name),
      );
      expect(declaring.length).toBeGreaterThan(0);
      for (const op of declaring) {
        const given = Object.fromEntries(
          (op.variableDefinitions ?? [])
            .map((v) => v.variable.name.value)
            .filter((n) => n in EXAMPLE_VARIABLES)
            .map((n) => [n, EXAMPLE_VARIABLES[n]]),
        );
        const coerced = getVariableValues(schema, op.variableDefinitions ?? [], given);
        expect(coerced.errors ?? []).toEqual([]);
      }
    }
  });

  it('runs its first operation as it opens, and names in the document each variable it leaves out', () => {
    const [first, ...later] = operations;
    const declared = (op: OperationDefinitionNode) =>
      (op.variableDefinitions ?? []).map((v) => v.variable.name.value);
    // Every variable of the first step is given: the run button works at once.
    expect(declared(first as OperationDefinitionNode).every((n) => n in EXAMPLE_VARIABLES)).toBe(
      true,
    );
    // Ids only a previous step answers are absent, never a placeholder; the comment names them.
    const comments = EXAMPLE_DOCUMENT.split('\n').filter((line) => line.startsWith('#'));
    for (const name of later.flatMap(declared).filter((n) => !(n in EXAMPLE_VARIABLES))) {
      expect(comments.join('\n')).toContain(`"${name}"`);
    }
    for (const value of Object.values(EXAMPLE_VARIABLES)) expect(value).toMatch(/^[1-9]\d*$/);
  });
});
