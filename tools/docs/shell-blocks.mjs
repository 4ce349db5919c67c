// The shell commands a Markdown document shows, read the way a person copies them into a terminal, so tests can run
// or parse exactly what the docs say (the README's first requests: test/e2e/readme.e2e-spec.ts; every operator CLI
// line in the docs: tools/admin/cli.spec.ts). A command is a line of a ```sh block that is not a comment (a trailing
// backslash continues it); the `# ...` lines right after it are the answer the document shows for it.

/**
 * The ```sh blocks of `markdown`, or those of the section under the heading `section` (up to the next heading of
 * the same or a higher level), each as its commands: `{ line, words, answer }`, `answer` the shown answer or
 * undefined.
 */
export function shellCommands(markdown, section) {
  let text = markdown;
  if (section !== undefined) {
    const lines = markdown.split('\n');
    // A heading is a line of #s outside code blocks (a `# ...` line inside one is a shell comment).
    let fenced = false;
    const level = lines.map((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && /^#+\s/.test(line) ? line.match(/^#+/)[0].length : 0;
    });
    const start = lines.findIndex((line, i) => level[i] > 0 && line.replace(/^#+\s*/, '') === section);
    if (start === -1) throw new Error(`no section "${section}"`);
    const end = lines.findIndex((_, i) => i > start && level[i] > 0 && level[i] <= level[start]);
    text = lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
  }
  const commands = [];
  for (const [, block] of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    let current;
    let pending = '';
    for (const raw of block.split('\n')) {
      if (pending) {
        pending += `\n${raw}`;
      } else if (/^\s*#/.test(raw)) {
        // An answer shown under the command before it.
        if (current)
          current.answer = current.answer === undefined ? stripHash(raw) : `${current.answer}\n${stripHash(raw)}`;
        continue;
      } else if (raw.trim() === '') {
        current = undefined;
        continue;
      } else {
        pending = raw;
      }
      if (pending.endsWith('\\')) continue;
      const line = pending;
      pending = '';
      current = { line, words: shellWords(line), answer: undefined };
      commands.push(current);
    }
  }
  return commands;
}

const stripHash = (line) => line.replace(/^\s*# ?/, '');

/**
 * A command line split into words as a POSIX shell splits it: single quotes keep everything, double quotes keep all
 * but \" \\ \$ \`, a backslash outside quotes keeps the next character (a backslash-newline joins lines), and an
 * unquoted # that starts a word begins a comment. Pipes, redirections and variables are not interpreted: the docs'
 * runnable commands use none.
 */
export function shellWords(line) {
  const words = [];
  let word;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new Error(`unterminated ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; line[i] !== '"'; i++) {
        if (i >= line.length) throw new Error(`unterminated " in: ${line}`);
        if (line[i] === '\\' && '"\\$`'.includes(line[i + 1])) i++;
        word += line[i];
      }
    } else if (c === '\\') {
      if (line[i + 1] !== '\n') word = (word ?? '') + line[i + 1];
      i++;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
