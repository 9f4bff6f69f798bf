import type { GaleraCluster } from '../helpers/galera';

/** After the cluster tier: the cluster's nodes stopped and its folder removed. */
export default async function clusterTeardown(): Promise<void> {
  await (globalThis as { galeraCluster?: GaleraCluster }).galeraCluster?.stop();
}
