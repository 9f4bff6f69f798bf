import { credentialsFrom } from '../../src/api/http/credentials.reader';
import { ServiceApiError } from '../../src/errors';

describe('credentialsFrom', () => {
  it('reads a query string, a JSON body or a WebSocket connection_init payload alike', () => {
    expect(credentialsFrom('getQuiz', { apiKey: 'k', accessToken: 't', quizId: '1' })).toEqual({
      apiKey: 'k',
      accessToken: 't',
    });
    expect(credentialsFrom('graphql', { apiKey: 'k' })).toEqual({
      apiKey: 'k',
      accessToken: undefined,
    });
  });

  it('takes each credential from the first carrier that holds it', () => {
    const headers = { apiKey: undefined, accessToken: 'bearer' };
    const query = { apiKey: 'from-query', accessToken: 'from-query' };
    expect(credentialsFrom('graphql', headers, query)).toEqual({
      apiKey: 'from-query',
      accessToken: 'bearer',
    });
  });

  it('refuses a credential given twice in any carrier, the API key first', () => {
    const refusal = (carriers: Record<string, unknown>[]) => {
      try {
        credentialsFrom('graphql', ...carriers);
      } catch (error) {
        return error instanceof ServiceApiError ? error.toBody() : error;
      }
      return undefined;
    };
    expect(refusal([{ apiKey: 'a' }, { apiKey: ['a', 'b'] }])).toMatchObject({
      type: 'BadParameterException',
      operation: 'graphql',
      parameterName: 'apiKey',
      // A credential's value is never repeated (contract.md §2).
      providedValue: '[REDACTED]',
      reason: 'must be given once',
    });
    expect(refusal([{ apiKey: ['a', 'b'], accessToken: ['c', 'd'] }])).toMatchObject({
      parameterName: 'apiKey',
    });
    expect(refusal([{ apiKey: 'a', accessToken: ['c', 'd'] }])).toMatchObject({
      parameterName: 'accessToken',
    });
  });
});
