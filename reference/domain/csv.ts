// RFC 4180 CSV: a header row, CRLF line ends, and a field quoted (with inner quotes doubled) when it
// holds a comma, a quote, CR or LF. A field starting with = + - @ (or tab/CR) is prefixed with a quote
// mark so a spreadsheet opening the export does not run it as a formula.
export function toCsv<T extends object>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const lines = [columns.map(csvField).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvField(cell(row[c]))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function csvField(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v) && !/^-?[0-9.]+$/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
