import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * docker-compose.yml read as Compose reads it (YAML with anchors and merge keys; there is no
 * Docker engine here to run it): the default profile is the service on MySQL, and the `cluster`
 * profile is three Galera nodes, two instances that list all three nodes, and a load balancer
 * that checks /readyz.
 */

// js-yaml is already installed (a dependency of the test tooling); no types ship with it.
const yaml = createRequire(__filename)('js-yaml') as { safeLoad(text: string): unknown };

interface ComposeService {
  image?: string;
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  volumes?: string[];
  ports?: string[];
}

const ROOT = path.join(__dirname, '../..');
const compose = yaml.safeLoad(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = Object.entries(compose.services);
const inProfile = (profile: string) =>
  services.filter(([, service]) => service.profiles?.includes(profile)).map(([name]) => name);
const NODES = ['galera1', 'galera2', 'galera3'];

describe('docker-compose.yml', () => {
  it('keeps the default profile: MySQL and one instance', () => {
    const always = services.filter(([, service]) => !service.profiles).map(([name]) => name);
    expect(always).toEqual(['mysql', 'app']);
    expect(compose.services.app?.environment?.DATABASE_URL).toBe(
      'mysql://quiz:quiz@mysql:3306/quiz',
    );
    expect(compose.services.app?.ports).toEqual(['3000:3000']);
  });

  it('has a cluster profile of three Galera nodes, two instances and a load balancer', () => {
    expect(inProfile('cluster')).toEqual([...NODES, 'app1', 'app2', 'lb']);
  });

  it('runs each node with wsrep, a volume, a health check on wsrep_ready and a restart policy', () => {
    for (const name of NODES) {
      const node = compose.services[name] as ComposeService;
      expect(node.image).toMatch(/^mariadb:/);
      expect(node.command).toEqual(
        expect.arrayContaining([
          '--wsrep_on=ON',
          '--wsrep_provider=/usr/lib/galera/libgalera_smm.so',
          '--wsrep_cluster_address=gcomm://galera1,galera2,galera3',
          '--binlog_format=ROW',
          '--innodb_autoinc_lock_mode=2',
          `--wsrep_node_name=${name}`,
        ]),
      );
      expect(node.volumes).toEqual([`${name}-data:/var/lib/mysql`]);
      expect(compose.volumes).toHaveProperty(`${name}-data`);
      expect(node.healthcheck?.test.join(' ')).toMatch(/wsrep_ready/);
      expect(node.restart).toBe('unless-stopped');
    }
    // Only the first node bootstraps; the others join one that is healthy.
    const bootstraps = NODES.filter((name) =>
      compose.services[name]?.command?.includes('--wsrep-new-cluster'),
    );
    expect(bootstraps).toEqual(['galera1']);
    expect(compose.services.galera2?.depends_on).toEqual({
      galera1: { condition: 'service_healthy' },
    });
    expect(compose.services.galera3?.depends_on).toEqual({
      galera2: { condition: 'service_healthy' },
    });
  });

  it('lists all three nodes in each instance, each starting on another node', () => {
    const firstNodes = ['app1', 'app2'].map((name) => {
      const app = compose.services[name] as ComposeService;
      // Several hosts are not a WHATWG URL: read as the service's configuration reads them.
      const [, hostList = ''] =
        /^mariadb:\/\/[^@/]+@([^/]+)\/quiz$/.exec(app.environment?.DATABASE_URL ?? '') ?? [];
      const hosts = hostList.split(',');
      expect([...hosts].sort()).toEqual(NODES.map((node) => `${node}:3306`));
      expect(Object.keys(app.depends_on ?? {}).sort()).toEqual(NODES);
      expect(app.healthcheck?.test.join(' ')).toMatch(/\/readyz/);
      return hosts[0];
    });
    expect(new Set(firstNodes).size).toBe(2);
  });

  it('puts a load balancer in front that checks /readyz of both instances', () => {
    const lb = compose.services.lb as ComposeService;
    expect(lb.depends_on).toEqual({
      app1: { condition: 'service_healthy' },
      app2: { condition: 'service_healthy' },
    });
    const mount = lb.volumes?.[0]?.split(':') ?? [];
    expect(mount[0]).toBe('./.config/haproxy.cfg');
    const config = fs.readFileSync(path.join(ROOT, mount[0] as string), 'utf8');
    expect(config).toMatch(/^\s*option httpchk GET \/readyz$/m);
    expect(config).toMatch(/^\s*server app1 app1:3000$/m);
    expect(config).toMatch(/^\s*server app2 app2:3000$/m);
  });
});
