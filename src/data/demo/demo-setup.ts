import { IsNull } from 'typeorm';
import { operatorContext, type AppDeps } from '../../context/request-context';
import { ApiKey, User } from '../../db/entities';
import { createApiKey, revokeApiKey } from '../../services/api-keys/api-key.service';
import { loadData } from '../import/bulk-loader';
import { DEMO_LOGINS, demoDocument } from './demo-data';

export const DEMO_KEY_LABEL = 'demo';

export interface DemoSetup {
  apiKey: string;
  seeded: boolean;
  banner: (url: string) => string[];
}

/**
 * For the embedded database: loads the demo data into an empty database, then issues a fresh
 * demo API key bound to localhost (keys are stored only as hashes, so an old one cannot be
 * shown again; the previous demo key is revoked).
 */
export async function prepareEmbeddedDemo(deps: AppDeps): Promise<DemoSetup | undefined> {
  const ctx = operatorContext(deps, 'demo');
  const users = deps.db.write.getRepository(User);
  let seeded = false;
  if (deps.config.seedDemo && (await users.count()) === 0) {
    await loadData(deps.db.write, demoDocument());
    seeded = true;
  }
  const teacher = await users.findOneBy({ email: DEMO_LOGINS[0].email });
  if (!teacher) return undefined;
  const previous = await deps.db.write
    .getRepository(ApiKey)
    .findBy({ label: DEMO_KEY_LABEL, ownerId: teacher.id, revokedAt: IsNull() });
  for (const key of previous) await revokeApiKey(ctx, key.id);
  const { secret } = await createApiKey(ctx, {
    host: 'localhost',
    ownerId: teacher.id,
    label: DEMO_KEY_LABEL,
  });
  return {
    apiKey: secret,
    seeded,
    banner: () => [
      seeded ? 'Demo data loaded into the embedded database.' : 'Embedded database with demo data.',
      `Demo API key (bound to localhost, shown once): ${secret}`,
      'Demo logins:',
      ...DEMO_LOGINS.map((login) => `  ${login.role}: ${login.email} / ${login.password}`),
    ],
  };
}
