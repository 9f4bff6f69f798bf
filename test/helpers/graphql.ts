/** A GraphQL request to the running app, as a client sends it (JSON POST). */
export async function graphql(
  baseUrl: string,
  query: string,
  options: {
    variables?: Record<string, unknown>;
    headers?: Record<string, string>;
    search?: string;
    operationName?: string;
  } = {},
): Promise<{
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: GraphQLErrorBody[] };
}> {
  const res = await fetch(`${baseUrl}/graphql${options.search ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify({
      query,
      variables: options.variables,
      operationName: options.operationName,
    }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: Record<string, unknown> | null;
      errors?: GraphQLErrorBody[];
    },
  };
}

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}
