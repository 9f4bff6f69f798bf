import {
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

/**
 * The root fields an operation selects, through the fragments spread at its root: each is one
 * legacy operation (aliases included, so a field asked twice is counted twice).
 */
export function rootFields(
  selectionSet: SelectionSetNode,
  fragment: (name: string) => FragmentDefinitionNode | null | undefined,
): FieldNode[] {
  const fields: FieldNode[] = [];
  const seen = new Set<string>();
  const pending = [selectionSet];
  while (pending.length > 0) {
    for (const selection of (pending.pop() as SelectionSetNode).selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) pending.push(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        // A fragment spread twice at the root selects its fields once.
        seen.add(selection.name.value);
        const definition = fragment(selection.name.value);
        if (definition) pending.push(definition.selectionSet);
      }
    }
  }
  return fields;
}

/** The root field (the operation name, not its alias) a resolver of any depth belongs to. */
export function rootFieldName(info: GraphQLResolveInfo): string {
  let path = info.path;
  while (path.prev) path = path.prev;
  const key = String(path.key);
  const field = rootFields(info.operation.selectionSet, (name) => info.fragments[name]).find(
    (node) => (node.alias?.value ?? node.name.value) === key,
  );
  return field?.name.value ?? key;
}
