// For the specs: the tables the kit prints (lib/common.mjs `table`), read back as cells.

/** The trimmed cells of each row of the Markdown tables in `text`. */
export const tableRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

/** The cells of the first row whose first cell is `first`. */
export const rowOf = (text: string, first: string): string[] | undefined =>
  tableRows(text).find((cells) => cells[0] === first);
