import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';

// The alert rules (deploy/prometheus/alerts.yml) under `promtool test rules`, and the Prometheus configurations
// under `promtool check config`. promtool is Debian's `prometheus` package (.ci/run installs it).
const dir = join(__dirname, '..', '..', 'deploy', 'prometheus');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const installed = promtool.status === 0;

function run(args: string[], cwd: string) {
  const result = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A directory holding copies of deploy/prometheus's files, for variants of them. */
function scratch(): string {
  const copy = mkdtempSync(join(tmpdir(), 'prometheus-rules-'));
  for (const name of readdirSync(dir)) if (/\.ya?ml$/.test(name)) copyFileSync(join(dir, name), join(copy, name));
  return copy;
}

const testFiles = readdirSync(dir).filter((name) => name.endsWith('.test.yml'));
const rules = YAML.parse(readFileSync(join(dir, 'alerts.yml'), 'utf8'));
const alertNames: string[] = rules.groups.flatMap((group: { rules: { alert?: string }[] }) =>
  group.rules.map((rule) => rule.alert).filter(Boolean),
);

// Without promtool the tests are skipped and say why in their describe's title, which `npm test`'s summary lists.
(installed ? describe : describe.skip)(
  `deploy/prometheus${installed ? '' : ' (skipped: promtool is not installed; apt-get install prometheus)'}`,
  () => {
    let copy: string;
    beforeEach(() => {
      copy = scratch();
    });
    afterEach(() => rmSync(copy, { recursive: true, force: true }));

    it.each(testFiles)('passes promtool test rules %s', (file) => {
      const result = run(['test', 'rules', file], dir);
      expect(result.output).toContain('SUCCESS');
      expect(result.status).toBe(0);
    });

    it('tests every alert both firing and quiet', () => {
      const cases = testFiles.flatMap((file) =>
        YAML.parse(readFileSync(join(dir, file), 'utf8')).tests.flatMap(
          (test: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }) => test.alert_rule_test ?? [],
        ),
      );
      for (const alert of alertNames) {
        const of = cases.filter((c: { alertname: string }) => c.alertname === alert);
        expect({ alert, firing: of.some((c) => c.exp_alerts.length > 0) }).toEqual({ alert, firing: true });
        expect({ alert, quiet: of.some((c) => c.exp_alerts.length === 0) }).toEqual({ alert, quiet: true });
      }
    });

    it('fails the tests when a rule no longer fires as they expect (a threshold raised)', () => {
      const text = readFileSync(join(copy, 'alerts.yml'), 'utf8');
      const raised = text.replace(
        'max by (job) (webhook_deliveries_pending) > 500',
        'max by (job) (webhook_deliveries_pending) > 5000',
      );
      expect(raised).not.toBe(text);
      writeFileSync(join(copy, 'alerts.yml'), raised);
      const result = run(['test', 'rules', 'alerts.test.yml'], copy);
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/alertname: WebhookBacklog, time: 16m/);
    });

    it("checks prometheus.yml, the cluster configuration, with the cluster's targets files", () => {
      const targets = join(dir, '..', 'compose', 'cluster', 'prometheus-targets');
      mkdirSync(join(copy, 'targets'));
      for (const name of readdirSync(targets)) copyFileSync(join(targets, name), join(copy, 'targets', name));
      const result = run(['check', 'config', 'prometheus.yml'], copy);
      // A targets file missing or malformed is a WARNING here (Prometheus would scrape nothing of that service).
      expect(result.output).not.toMatch(/WARNING|FAILED/);
      expect(result.output).toMatch(/SUCCESS: 1 rule files found/);
      expect(result.status).toBe(0);
    });

    it('checks prometheus-kubernetes.yml, its Kubernetes discovery swapped for static targets', () => {
      // Debian builds Prometheus without Kubernetes service discovery; the rest of the file is checked as it is.
      const config = YAML.parse(readFileSync(join(copy, 'prometheus-kubernetes.yml'), 'utf8'));
      for (const job of config.scrape_configs) {
        expect(job.kubernetes_sd_configs).toEqual([{ role: 'pod', namespaces: { names: ['switchboard'] } }]);
        delete job.kubernetes_sd_configs;
        job.static_configs = [{ targets: ['10.0.0.1:8080'] }];
      }
      writeFileSync(join(copy, 'prometheus-kubernetes.yml'), YAML.stringify(config));
      const result = run(['check', 'config', 'prometheus-kubernetes.yml'], copy);
      expect(result.output).toMatch(/SUCCESS: 1 rule files found/);
      expect(result.status).toBe(0);
    });
  },
);
