import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  clusterStatus,
  killNode,
  nodeUrl,
  readState,
  restartNode,
  startClusterProcesses,
  stopClusterProcesses,
} from './galera';

/**
 * `npm run cluster -- start | status | stop | kill <n> | restart <n>`: a local three-node Galera
 * cluster for trying the service on it (test/helpers/galera.ts). `start` leaves the nodes
 * running and records where they are in a pointer file (QUIZ_GALERA_POINTER, by default in the
 * system's temporary folder), which the other commands read; nodes are numbered from 1.
 */

const POINTER = process.env.QUIZ_GALERA_POINTER ?? path.join(os.tmpdir(), 'quiz-galera-cluster');

function currentDir(): string {
  if (!fs.existsSync(POINTER))
    throw new Error('no cluster started (run: npm run cluster -- start)');
  return fs.readFileSync(POINTER, 'utf8').trim();
}

function nodeIndex(arg: string | undefined): number {
  const n = Number(arg);
  if (!Number.isInteger(n) || n < 1) throw new Error('give a node number from 1');
  return n - 1;
}

async function main(command: string | undefined, arg: string | undefined): Promise<void> {
  switch (command) {
    case 'start': {
      if (fs.existsSync(POINTER) && fs.existsSync(currentDir())) {
        throw new Error(`a cluster already runs in ${currentDir()} (npm run cluster -- stop)`);
      }
      const state = await startClusterProcesses();
      fs.writeFileSync(POINTER, state.dir);
      console.log(
        `cluster of ${state.nodes.length} nodes synced in ${(state.startupMs / 1000).toFixed(1)} s (${state.dir})`,
      );
      const hosts = state.nodes.map((node) => `127.0.0.1:${node.ports.port}`).join(',');
      console.log(`nodes: ${state.nodes.map((node) => nodeUrl(node)).join(' ')}`);
      console.log(`one instance per node: DATABASE_URL=mariadb://root@<host:port>/quiz (${hosts})`);
      return;
    }
    case 'status': {
      for (const node of await clusterStatus(readState(currentDir()))) {
        console.log(
          `node ${node.index + 1} port ${node.port}: ${
            node.running
              ? `${node.state ?? 'no answer'}, ready ${node.ready ?? '?'}, cluster size ${node.clusterSize ?? '?'}`
              : 'stopped'
          }`,
        );
      }
      return;
    }
    case 'stop': {
      await stopClusterProcesses(readState(currentDir()));
      fs.rmSync(POINTER, { force: true });
      console.log('cluster stopped and its folder removed');
      return;
    }
    case 'kill': {
      const index = nodeIndex(arg);
      await killNode(readState(currentDir()), index);
      console.log(`node ${index + 1} killed`);
      return;
    }
    case 'restart': {
      const index = nodeIndex(arg);
      const ms = await restartNode(readState(currentDir()), index);
      console.log(`node ${index + 1} rejoined and synced in ${(ms / 1000).toFixed(1)} s`);
      return;
    }
    default:
      throw new Error('usage: npm run cluster -- start | status | stop | kill <n> | restart <n>');
  }
}

main(process.argv[2], process.argv[3]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
