import { startGaleraCluster, type GaleraCluster } from '../helpers/galera';
import { GALERA_URLS_VARIABLE } from '../helpers/database';

/**
 * Before the cluster tier (jest `globalSetup` of the project): a three-node Galera cluster, whose
 * node URLs the test files read from QUIZ_GALERA_URLS; the teardown stops it, and it is killed
 * with this process if the run ends otherwise.
 */
export default async function clusterSetup(): Promise<void> {
  const cluster = await startGaleraCluster();
  process.env[GALERA_URLS_VARIABLE] = cluster.urls().join(',');
  (globalThis as { galeraCluster?: GaleraCluster }).galeraCluster = cluster;
  console.log(
    `\nGalera cluster of 3 nodes synced in ${(cluster.state.startupMs / 1000).toFixed(1)} s`,
  );
}
