import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import type { EnvVariable } from '@switchboard/service-runtime';
import { callsMediaVariables } from '../../apps/calls-media/src/config/variables';
import { gatewayVariables } from '../../apps/gateway/src/config/variables';
import { lostfoundVariables } from '../../apps/lostfound/src/config/variables';
import { numbersBillingVariables } from '../../apps/numbers-billing/src/config/variables';
import { webhookDispatcherVariables } from '../../apps/webhook-dispatcher/src/config/variables';
import { SERVICE_ENV } from '../dev/service-env.mjs';
import { deployFiles, isCompose, parseYaml, root, validate } from './check.mjs';

// The rules of this project that no schema knows, over deploy/k8s (and the image and compose files where the
// manifests must agree with them). Schemas and unknown fields: check.mjs, which `npm test` runs on deploy/ as its
// "deploy manifests" check; its cases below prove it reports what it should.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML of many shapes, walked by path in asserts
type Doc = Record<string, any>;

const read = (file: string) => readFileSync(join(root, file), 'utf8');
const docsOf = (file: string): Doc[] => parseYaml(file, read(file));

/** What each service reads from its environment (apps/<app>/src/config/variables.ts): the names it knows. */
const VARIABLES: Record<string, readonly EnvVariable[]> = {
  gateway: gatewayVariables,
  'numbers-billing': numbersBillingVariables,
  'calls-media': callsMediaVariables,
  lostfound: lostfoundVariables,
  'webhook-dispatcher': webhookDispatcherVariables,
};
const APPS = Object.keys(VARIABLES);
/** Read by Node or the OpenTelemetry SDK rather than by our config modules. */
const READ_BY_THE_RUNTIME = /^(NODE_ENV|NODE_EXTRA_CA_CERTS|OTEL_[A-Z_]+)$/;
/**
 * V8 and glibc malloc tuning. The image alone sets the malloc settings the idle-memory target needs
 * (tools/dev/service-env.mjs); a manifest or compose file that set them, or a V8 flag, would drift from it.
 */
const TUNING = /MALLOC_|--max-semi-space-size|--heap-growing-percent|--expose-gc|--max-old-space-size/;
/** Names whose values are secrets: read from a Secret, never written in a manifest. */
const SECRET_NAME = /(TOKEN|PASSWORD|SECRET|_KEY|_KEYS|ACCESS_KEY_ID|DATABASE_URL)$/;
const databaseVariable = (app: string) => `${app.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;

const k8sFiles: string[] = deployFiles().filter((file: string) => file.startsWith('deploy/k8s/'));
const k8s: { file: string; doc: Doc }[] = k8sFiles.flatMap((file) => docsOf(file).map((doc) => ({ file, doc })));
const ofKind = (kind: string) => k8s.filter(({ doc }) => doc.kind === kind).map(({ doc }) => doc);
/** The one document of `kind` named `name`; a missing one fails the test that asks, naming it. */
function named(kind: string, name: string): Doc {
  const doc = ofKind(kind).find((candidate) => candidate.metadata.name === name);
  if (!doc) throw new Error(`deploy/k8s: no ${kind} named ${name}`);
  return doc;
}
const deployment = (app: string) => named('Deployment', app);
const secretsExample = new Map<string, Set<string>>(
  docsOf('deploy/k8s/secrets.example.yaml').map((doc) => [doc.metadata.name, new Set(Object.keys(doc.stringData))]),
);
const configMaps = new Map<string, Record<string, string>>(
  ofKind('ConfigMap').map((doc: Doc) => [doc.metadata.name, doc.data]),
);

describe('deploy/k8s', () => {
  it.each(APPS)(
    'runs %s as a Deployment of 2 replicas with a PodDisruptionBudget, probed on /healthz and /readyz',
    (app) => {
      const doc = deployment(app);
      expect(doc.spec.replicas).toBeGreaterThanOrEqual(2);
      expect(doc.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
      const labels = doc.spec.template.metadata.labels;
      expect(labels).toMatchObject(doc.spec.selector.matchLabels);
      const budget = named('PodDisruptionBudget', app);
      expect(labels).toMatchObject(budget.spec.selector.matchLabels);

      const [container] = doc.spec.template.spec.containers;
      const ports = new Set(container.ports.map((port: Doc) => port.name));
      const probe = (name: string) => ({
        path: container[name]?.httpGet?.path,
        declared: ports.has(container[name]?.httpGet?.port),
      });
      expect(probe('startupProbe')).toEqual({ path: '/healthz', declared: true });
      expect(probe('livenessProbe')).toEqual({ path: '/healthz', declared: true });
      // The gateway's /readyz answers 503 when any one service is down (operator contract): as its readiness it would
      // take every gateway out of the Service in one service's outage (gateway.yaml says more); alerts watch it instead.
      expect(probe('readinessProbe')).toEqual({ path: app === 'gateway' ? '/healthz' : '/readyz', declared: true });
    },
  );

  it.each(APPS)('has a migration Job for %s: its image, /app/migrate.cjs, its database URL from its Secret', (app) => {
    const [job] = docsOf(`deploy/k8s/jobs/${app}-migrate.yaml`);
    expect(job.kind).toBe('Job');
    const [container] = job.spec.template.spec.containers;
    const image = (ref: string) => ref.replace(/[:@][^/]*$/, '');
    expect(image(container.image)).toBe(image(deployment(app).spec.template.spec.containers[0].image));
    expect(container.command).toEqual(['node', '/app/migrate.cjs']);
    const url = container.env.find((env: Doc) => env.name === databaseVariable(app));
    expect(url.valueFrom.secretKeyRef).toEqual({ name: `${app}-secrets`, key: databaseVariable(app) });
  });

  it.each(APPS)(
    'sets only variables %s reads, secrets from Secrets the example describes, no V8 or malloc flags',
    (app) => {
      const known = new Set(VARIABLES[app].map((variable) => variable.name));
      const unknown: string[] = [];
      const pod = deployment(app).spec.template.spec;
      const [job] = docsOf(`deploy/k8s/jobs/${app}-migrate.yaml`);
      for (const container of [...pod.containers, ...job.spec.template.spec.containers]) {
        const env: Doc[] = container.env ?? [];
        // Only there to be interpolated into another variable, as $(POD_NAME).
        const interpolated = (name: string) => env.some((other) => String(other.value ?? '').includes(`$(${name})`));
        for (const { name, value, valueFrom } of env) {
          if (!known.has(name) && !READ_BY_THE_RUNTIME.test(name) && !interpolated(name)) unknown.push(name);
          expect(`${name}=${value ?? ''}`).not.toMatch(TUNING);
          if (SECRET_NAME.test(name))
            expect({ name, from: valueFrom?.secretKeyRef?.name }).toEqual({ name, from: `${app}-secrets` });
          const ref = valueFrom?.secretKeyRef;
          if (ref && !ref.optional)
            expect({ name, described: secretsExample.get(ref.name)?.has(ref.key) }).toEqual({ name, described: true });
        }
        for (const from of container.envFrom ?? []) {
          expect(from.secretRef).toBeUndefined(); // a whole Secret hides which keys a service needs
          expect(configMaps.has(from.configMapRef.name)).toBe(true);
        }
        expect([...(container.command ?? []), ...(container.args ?? [])].join(' ')).not.toMatch(TUNING);
      }
      expect(unknown).toEqual([]);
    },
  );

  it('shares only settings some service reads, and no secret, in its ConfigMap', () => {
    const readBySome = new Set(Object.values(VARIABLES).flatMap((variables) => variables.map((v) => v.name)));
    for (const data of configMaps.values()) {
      for (const [name, value] of Object.entries(data)) {
        expect({ name, read: readBySome.has(name) || READ_BY_THE_RUNTIME.test(name) }).toEqual({ name, read: true });
        expect({ name, secret: SECRET_NAME.test(name) }).toEqual({ name, secret: false });
        expect(`${name}=${value}`).not.toMatch(TUNING);
      }
    }
  });

  it('runs every pod as the restricted Pod Security Standard its namespace enforces asks', () => {
    for (const doc of [
      ...ofKind('Deployment'),
      ...APPS.map((app) => docsOf(`deploy/k8s/jobs/${app}-migrate.yaml`)[0]),
    ]) {
      const pod = doc.spec.template.spec;
      expect({ name: doc.metadata.name, ...pod.securityContext }).toMatchObject({
        name: doc.metadata.name,
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
        expect(container.resources.limits.memory).toEqual(expect.any(String));
      }
    }
  });

  it('has every Service and scrape annotation pointing at a port its pods declare', () => {
    for (const service of ofKind('Service')) {
      const pods = ofKind('Deployment').filter((doc: Doc) =>
        Object.entries(service.spec.selector).every(([key, value]) => doc.spec.template.metadata.labels[key] === value),
      );
      expect({ service: service.metadata.name, pods: pods.length }).toEqual({
        service: service.metadata.name,
        pods: 1,
      });
      const names = pods[0].spec.template.spec.containers[0].ports.map((port: Doc) => port.name);
      for (const port of service.spec.ports) expect(names).toContain(port.targetPort);
    }
    for (const app of APPS) {
      const template = deployment(app).spec.template;
      const numbers = template.spec.containers[0].ports.map((port: Doc) => String(port.containerPort));
      expect(template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/path': '/metrics',
      });
      // The gateway serves /metrics on its operator port, the other services on HEALTH_PORT.
      expect(numbers).toContain(template.metadata.annotations['prometheus.io/port']);
      expect(template.metadata.annotations['prometheus.io/port']).toBe(app === 'gateway' ? '3001' : '8080');
    }
  });

  it('lists every long-lived manifest in the kustomization, with an image entry per service, and no Job', () => {
    const [kustomization] = docsOf('deploy/k8s/kustomization.yaml');
    const manifests = readdirSync(join(root, 'deploy/k8s')).filter(
      (name) => name.endsWith('.yaml') && !['kustomization.yaml', 'secrets.example.yaml'].includes(name),
    );
    expect([...kustomization.resources].sort()).toEqual(manifests.sort());
    const images = kustomization.images
      .filter((image: Doc) => image.newTag || image.digest)
      .map((image: Doc) => image.name);
    for (const app of APPS)
      expect(images).toContain(deployment(app).spec.template.spec.containers[0].image.split(':')[0]);
  });
});

/**
 * What each service refuses to start without when `NODE_ENV=production`, read from its variable declarations (the
 * default its README shows says so): the gateway's ADMIN_TOKEN and CONSOLE_URL, numbers-billing's encryption key.
 */
const REQUIRED_IN_PRODUCTION = /^required (when `NODE_ENV=production`|in production)[;,. ]/;
const requiredInProduction = (app: string) =>
  VARIABLES[app].filter((variable) => REQUIRED_IN_PRODUCTION.test(variable.shown ?? '')).map((v) => v.name);

/** The variables a compose service sets to something: not blank, not `${NAME:-}` (empty unless given). */
function composeSetVariables(service: Doc): string[] {
  const env: [string, string | number | boolean | null][] = Array.isArray(service.environment)
    ? service.environment.map((entry: string) => [entry.split('=')[0], entry.split('=').slice(1).join('=')])
    : Object.entries(service.environment ?? {});
  return env
    .filter(([, value]) => value !== null && `${value}`.trim() !== '' && !/^\$\{\w+:?-\}$/.test(`${value}`))
    .map(([name]) => name);
}

describe('every deployment file, for what the services require in production', () => {
  it('derives the requirements from the services, CONSOLE_URL among them', () => {
    expect(requiredInProduction('gateway')).toEqual(expect.arrayContaining(['ADMIN_TOKEN', 'CONSOLE_URL']));
    expect(requiredInProduction('numbers-billing')).toContain('SECRETS_ENCRYPTION_KEY');
  });

  it.each(APPS)('sets in the Kubernetes Deployment of %s each variable it requires in production', (app) => {
    const [container] = deployment(app).spec.template.spec.containers;
    const set = new Set<string>(
      (container.env ?? [])
        .filter((env: Doc) => env.value !== undefined || (env.valueFrom && !env.valueFrom.secretKeyRef?.optional))
        .map((env: Doc) => env.name),
    );
    for (const from of container.envFrom ?? [])
      for (const name of Object.keys(configMaps.get(from.configMapRef?.name) ?? {})) set.add(name);
    expect({ app, missing: requiredInProduction(app).filter((name) => !set.has(name)) }).toEqual({ app, missing: [] });
  });

  it('sets in every compose service that runs a service each variable it requires in production', () => {
    const missing: string[] = [];
    let services = 0;
    for (const file of deployFiles().filter(isCompose)) {
      for (const doc of docsOf(file)) {
        for (const [name, service] of Object.entries<Doc>(doc.services ?? {})) {
          const app = service.build?.args?.APP ?? APPS.find((a) => String(service.image ?? '').includes(`/${a}:`));
          // A migration job runs migrate.cjs, not the service: it reads its database URL only.
          if (
            !VARIABLES[app] ||
            []
              .concat(service.command ?? [])
              .join(' ')
              .includes('migrate.cjs')
          )
            continue;
          services++;
          const set = new Set(composeSetVariables(service));
          for (const variable of requiredInProduction(app))
            if (!set.has(variable)) missing.push(`${file} ${name}: ${variable}`);
        }
      }
    }
    // compose.yaml's five services and compose.cluster.yaml's two replicas of each.
    expect(services).toBeGreaterThanOrEqual(15);
    expect(missing).toEqual([]);
  });
});

describe('the image and the compose files, where the manifests depend on them', () => {
  it('copies every workspace package.json into the image before npm ci (npm ci refuses a partial workspace set)', () => {
    const workspaces: string[] = JSON.parse(read('package.json')).workspaces.flatMap((pattern: string) =>
      pattern.endsWith('/*')
        ? readdirSync(join(root, pattern.slice(0, -2)))
            .map((name) => `${pattern.slice(0, -2)}/${name}`)
            .filter((dir) => existsSync(join(root, dir, 'package.json')))
        : [pattern],
    );
    const dockerfile = read('deploy/docker/Dockerfile');
    const missing = workspaces.filter((dir) => !new RegExp(`^COPY .*\\b${dir}/package\\.json`, 'm').test(dockerfile));
    expect(missing).toEqual([]);
  });

  it("sets the services' malloc environment in the image, as npm start and the benchmarks do", () => {
    const dockerfile = DockerfileParser.parse(read('deploy/docker/Dockerfile'));
    const lineOf = (instruction: { getRange(): { start: { line: number } } }) => instruction.getRange().start.line;
    const froms = dockerfile.getFROMs();
    const runtime = froms.findIndex((from) => from.getBuildStage() === 'runtime');
    expect(runtime).toBeGreaterThanOrEqual(0);
    const [start, end] = [lineOf(froms[runtime]), froms[runtime + 1] ? lineOf(froms[runtime + 1]) : Infinity];
    const set = Object.fromEntries(
      dockerfile
        .getENVs()
        .filter((env) => lineOf(env) > start && lineOf(env) < end)
        .flatMap((env) => env.getProperties())
        .filter((property) => property.getName().startsWith('MALLOC_'))
        .map((property) => [property.getName(), property.getValue()]),
    );
    expect(set).toEqual(SERVICE_ENV);
  });

  // Compose files share one environment block among services (a YAML anchor), so a variable there need only be
  // read by some service; a misspelt or retired one (a V8 or malloc flag among them) is read by none.
  it('sets, in the compose services built from the image, only variables some service reads, and no V8 flags', () => {
    const readBySome = new Set(Object.values(VARIABLES).flatMap((variables) => variables.map((v) => v.name)));
    const unread: string[] = [];
    for (const file of deployFiles().filter(isCompose)) {
      for (const doc of docsOf(file)) {
        for (const [name, service] of Object.entries<Doc>(doc.services ?? {})) {
          const app = service.build?.args?.APP ?? APPS.find((a) => String(service.image ?? '').includes(`/${a}:`));
          if (!VARIABLES[app]) continue;
          const env: [string, unknown][] = Array.isArray(service.environment)
            ? service.environment.map((entry: string) => [entry.split('=')[0], entry.split('=').slice(1).join('=')])
            : Object.entries(service.environment ?? {});
          for (const [variable, value] of env) {
            if (!readBySome.has(variable) && !READ_BY_THE_RUNTIME.test(variable))
              unread.push(`${file} ${name}: ${variable}`);
            expect(`${file} ${name}: ${variable}=${String(value)}`).not.toMatch(TUNING);
          }
          expect(`${file} ${name}: ${[].concat(service.command ?? []).join(' ')}`).not.toMatch(TUNING);
        }
      }
    }
    expect(unread).toEqual([]);
  });
});

describe('check.mjs (the "deploy manifests" step of npm test)', () => {
  /** The real files, with `find` replaced in `file`; what the validator says about them. */
  function problemsAfter(file: string, find: string | RegExp, replace: string): string[] {
    const text = read(file);
    const broken = text.replace(find, replace);
    expect(broken).not.toBe(text);
    return validate([file], (f: string) => (f === file ? broken : read(f))).problems;
  }

  it('passes the real Kubernetes manifests', () => {
    expect(validate(k8sFiles).problems).toEqual([]);
  });

  it("reports a value of the wrong type against Kubernetes' schema", () => {
    expect(problemsAfter('deploy/k8s/lostfound.yaml', 'replicas: 2', 'replicas: two')).toEqual([
      expect.stringMatching(/lostfound\.yaml \(Deployment lostfound\): Kubernetes schema: .*replicas must be integer/),
    ]);
  });

  it('reports a field Kubernetes does not know, which its OpenAPI schema lets through', () => {
    expect(problemsAfter('deploy/k8s/lostfound.yaml', 'readinessProbe:', 'readinesProbe:')).toEqual([
      expect.stringMatching(/lostfound\.yaml \(Deployment lostfound\): Kubernetes types: .*readinesProbe/),
    ]);
  });

  it('reports a kind that does not exist in its apiVersion, and a duplicate key', () => {
    expect(problemsAfter('deploy/k8s/namespace.yaml', 'kind: Namespace', 'kind: Namespaces')).toEqual([
      expect.stringMatching(/no Kubernetes schema for v1 Namespaces/),
    ]);
    expect(problemsAfter('deploy/k8s/namespace.yaml', 'metadata:\n', 'metadata:\n  name: other\n')).toEqual([
      expect.stringMatching(/namespace\.yaml: YAML: .*unique/i),
    ]);
  });

  it('reports a compose service key the Compose Specification does not have', () => {
    const [file] = deployFiles().filter(isCompose);
    expect(problemsAfter(file, /\n {4}image: /, '\n    imagee: ')).toContainEqual(
      expect.stringMatching(/compose schema: \/services\/[\w-]+ must NOT have additional properties \("imagee"\)/),
    );
  });

  it('reports a Dockerfile instruction with a flag Docker does not have', () => {
    expect(
      problemsAfter('deploy/docker/Dockerfile', /\nUSER /, '\nHEALTHCHECK --intervall=5s CMD true\nUSER '),
    ).toContainEqual(expect.stringMatching(/Dockerfile:\d+: Dockerfile: Unknown flag: intervall/));
  });
});
