// The perf kit's one command-line parser: node:util's parseArgs in strict mode, with the kit's value types on top
// (numbers, comma-separated lists, lists limited to known values) and errors that name the option and the known ones.
import { parseArgs } from 'node:util';

/** A mistake on the command line: the commands print it with their usage and exit 2. */
export class UsageError extends Error {}

/**
 * Reads `argv` against `spec`: { name: { type: 'boolean' | 'string' | 'number' | 'list' | 'counts', default, choices?,
 * min?, help? } } (`counts`: a list of whole numbers over 0, `1_000_000` allowed). Returns { name: value } with every
 * option present (its default when not given); `help` is true when `--help` was given. Throws UsageError for an
 * unknown option, a missing or malformed value, a string or list item outside `choices`, a number under `min`, or a
 * positional argument.
 */
export function parseOptions(argv, spec) {
  const options = { help: { type: 'boolean' } };
  for (const [name, def] of Object.entries(spec))
    options[name] = { type: def.type === 'boolean' ? 'boolean' : 'string' };
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(describeParseError(error, spec));
  }
  const result = { help: values.help === true };
  for (const [name, def] of Object.entries(spec)) {
    const raw = values[name];
    result[name] = raw === undefined ? def.default : convert(name, def, raw);
  }
  return result;
}

function convert(name, def, raw) {
  if (def.type === 'boolean') return raw;
  if (def.type === 'string') {
    if (def.choices && !def.choices.includes(raw))
      throw new UsageError(`--${name}: unknown ${raw} (known: ${def.choices.join(', ')})`);
    return raw;
  }
  if (def.type === 'number') {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} must be a number, not "${raw}"`);
    if (def.min !== undefined && value < def.min)
      throw new UsageError(`--${name} must be at least ${def.min}, not ${value}`);
    return value;
  }
  if (def.type === 'list' || def.type === 'counts') {
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (items.length === 0) throw new UsageError(`--${name} needs at least one value`);
    const unknown = def.choices ? items.filter((item) => !def.choices.includes(item)) : [];
    if (unknown.length > 0)
      throw new UsageError(`--${name}: unknown ${unknown.join(', ')} (known: ${def.choices.join(', ')})`);
    if (def.type === 'list') return items;
    const counts = items.map((item) => Number(item.replace(/_/g, '')));
    if (!counts.every((n) => Number.isInteger(n) && n > 0))
      throw new UsageError(`--${name} takes whole numbers over 0, not "${raw}"`);
    return counts;
  }
  throw new Error(`option --${name} has an unknown type ${def.type}`);
}

function describeParseError(error, spec) {
  const known = Object.keys(spec)
    .map((name) => `--${name}`)
    .join(', ');
  const option = /'(--?[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option} (known: ${known})`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}: every option starts with -- (known: ${known})`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return spec[option?.replace(/^--/, '')]?.type === 'boolean'
        ? `${option} takes no value`
        : `${option} needs a value`;
    default:
      return error.message;
  }
}

/** The usage text: the command, then each option with its type, default and help. */
export function usage(command, spec) {
  const lines = Object.entries(spec).map(([name, def]) => {
    const value =
      def.type === 'boolean' ? '' : def.type === 'number' ? ' N' : def.type === 'string' ? ' VALUE' : ' a,b';
    const fallback =
      def.type === 'boolean' || def.default === undefined
        ? ''
        : ` (default ${Array.isArray(def.default) ? def.default.join(',') : def.default})`;
    return `  --${name}${value}${def.help ? `  ${def.help}` : ''}${fallback}`;
  });
  return `usage: ${command} [options]\n${lines.join('\n')}`;
}

/**
 * `parseOptions` over this process's arguments for a command's entry point: `--help` prints the usage and exits 0,
 * a usage error prints itself and the usage and exits 2.
 */
export function commandLine(command, spec, argv = process.argv.slice(2)) {
  try {
    const options = parseOptions(argv, spec);
    if (options.help) {
      console.log(usage(command, spec));
      process.exit(0);
    }
    return options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${command}: ${error.message}\n${usage(command, spec)}`);
    process.exit(2);
  }
}
