import fs from 'node:fs';
import path from 'node:path';
import { IsNull } from 'typeorm';
import { operatorContext, type AppDeps } from '../../context/request-context';
import { ApiKey, User } from '../../db/entities';
import { hashSecret } from '../../security/secrets';
import { createApiKey } from '../../services/api-keys/api-key.service';
import { loadData } from '../import/bulk-loader';
import { DEMO_LOGINS, demoDocument } from './demo-data';

export const DEMO_KEY_LABEL = 'demo';

export interface DemoSetup {
  apiKey: string;
  seeded: boolean;
  banner: (url: string) => string[];
}

/** Where the demo key's secret is kept: beside the embedded database file, readable by its owner only. */
export function demoKeyFile(sqlitePath: string): string {
  return path.join(path.dirname(sqlitePath), 'demo-api-key');
}

/** The secret kept in the file, if any. */
function keptSecret(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    const secret = fs.readFileSync(file, 'utf8').trim();
    return secret === '' ? undefined : secret;
  } catch {
    return undefined;
  }
}

/**
 * For the embedded database: loads the demo data into an empty database, then gives the demo
 * teacher's API key bound to localhost. The key is the same from one start to the next (pages and
 * tools where it was pasted keep working): its secret is kept in a file beside the database,
 * since the database keeps only its hash. No start revokes anything; when the owner has revoked
 * the kept key (key manager), the next start issues a new one.
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
  const { sqlitePath } = deps.config.database;
  const file = sqlitePath ? demoKeyFile(sqlitePath) : undefined;
  let secret = keptSecret(file);
  const kept =
    secret === undefined
      ? null
      : await deps.db.write.getRepository(ApiKey).findOneBy({
          keyHash: hashSecret(secret),
          label: DEMO_KEY_LABEL,
          ownerId: teacher.id,
          revokedAt: IsNull(),
        });
  if (!kept) {
    ({ secret } = await createApiKey(ctx, {
      host: 'localhost',
      ownerId: teacher.id,
      label: DEMO_KEY_LABEL,
    }));
    if (file) fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  }
  const demoKey = secret as string;
  return {
    apiKey: demoKey,
    seeded,
    banner: () => [
      seeded ? 'Demo data loaded into the embedded database.' : 'Embedded database with demo data.',
      `Demo API key (bound to localhost${file ? `, kept in ${file}` : ''}): ${demoKey}`,
      'Demo logins:',
      ...DEMO_LOGINS.map((login) => `  ${login.role}: ${login.email} / ${login.password}`),
    ],
  };
}
