import type { OperationName, OPERATIONS } from '../../operations/operation-catalog';
import type { ParameterNameOf } from '../../operations/operation-definition';

/**
 * What a plain root field needs besides its operation: its object type, and how the operation's
 * view becomes it. Each type file lists the root fields that answer its types (`*_ROOT_FIELDS`),
 * beside the conversion they use; catalog.resolver.ts builds the fields from them.
 */

type Operations = typeof OPERATIONS;

/** The view an operation's `run` returns. */
export type ViewOf<K extends OperationName> = Awaited<ReturnType<Operations[K]['run']>>;

/** What the SDL says of one argument beyond the catalog's type and requiredness. */
export interface ArgumentOptions {
  readonly description?: string;
  /** Printed in the SDL (`pageIndex: Int = 1`): the service's default, said there. */
  readonly defaultValue?: unknown;
}

/** An object type's class (DataSet, the interface of the pages, is abstract). */
export type ObjectTypeClass = abstract new (...args: never[]) => object;

/** A root field's GraphQL answer: its object type, and how the operation's view becomes it. */
export interface RootFieldOutput<K extends OperationName> {
  readonly type: () => ObjectTypeClass;
  readonly from: (view: ViewOf<K>) => unknown;
  readonly args?: Partial<Record<ParameterNameOf<Operations[K]['parameters']>, ArgumentOptions>>;
}

/** Any operation's output, as the generator reads it (each is typed by its operation above). */
export interface AnyRootFieldOutput {
  readonly type: () => ObjectTypeClass;
  readonly from: (view: unknown) => unknown;
  readonly args?: Readonly<Record<string, ArgumentOptions | undefined>>;
}

export type RootFieldOutputs = { readonly [K in OperationName]?: RootFieldOutput<K> };
