import type { DataSource } from 'typeorm';
import { createAppDeps, operatorContext } from '../../src/context/request-context';
import { loadConfig } from '../../src/config/config';
import { createApiKey } from '../../src/services/api-keys/api-key.service';
import { issueAccessToken } from '../../src/services/auth/access-token.service';
import { createLogger } from '../../src/observability/logger';

function operator(dataSource: DataSource, env: Record<string, string> = {}) {
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  return operatorContext(createAppDeps(config, dataSource, createLogger('silent')), 'test');
}

/** A real API key, made by the same service the CLI uses. */
export async function createTestApiKey(
  dataSource: DataSource,
  host = 'localhost',
  ownerId: number | null = null,
): Promise<{ id: number; secret: string }> {
  const { apiKey, secret } = await createApiKey(operator(dataSource), {
    host,
    ownerId,
    label: 'test',
  });
  return { id: apiKey.id, secret };
}

/** A real access token for a user and key, as the login page issues it. */
export async function createTestToken(
  dataSource: DataSource,
  userId: number,
  apiKeyId: number,
  env: Record<string, string> = {},
): Promise<string> {
  return (await issueAccessToken(operator(dataSource, env), userId, apiKeyId)).token;
}
