// Plain-text tables for the terminal: a title, aligned columns, and notes under the table.

export interface Table {
  title: string;
  headers: string[];
  rows: string[][];
  notes: string[];
}

export function renderTable(table: Table): string {
  const widths = table.headers.map((header, column) =>
    Math.max(header.length, ...table.rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [
    table.title,
    line(table.headers),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...table.rows.map(line),
    ...table.notes.map((note) => `  ${note}`),
  ].join("\n");
}

/** A number with `digits` decimals. */
export function fixed(value: number, digits = 2): string {
  return value.toFixed(digits);
}

/** A goal as `met`/`NOT met` followed by the measured value and its limit. */
export function goalText(label: string, value: string, limit: string, met: boolean): string {
  return `goal ${label}: ${value} (limit ${limit}) ${met ? "met" : "NOT met"}`;
}
