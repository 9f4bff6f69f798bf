import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config';
import {
  createAppDeps,
  createRequestContext,
  operatorContext,
  type RequestContext,
  type Requester,
} from '../../src/context/request-context';
import { createLogger } from '../../src/observability/logger';
// Services called directly find the kinds of sets registered, as in the app.
import '../../src/services/set-kinds/set-kinds.registry';

/** The context a service gets from a transport, for calling services directly in a test. */
export function serviceContext(
  dataSource: DataSource,
  operation: string,
  requester: Requester,
): RequestContext {
  const deps = createAppDeps(loadConfig({ NODE_ENV: 'test' }), dataSource, createLogger('silent'));
  return createRequestContext(deps, { operation, requester });
}

/** The context of an operator command (revoking a key, say) on the test's database. */
export function operatorServiceContext(dataSource: DataSource): RequestContext {
  const deps = createAppDeps(loadConfig({ NODE_ENV: 'test' }), dataSource, createLogger('silent'));
  return operatorContext(deps, 'test');
}
