import ExcelJS from 'exceljs';

/* Spreadsheet files and multipart bodies built by the import tests. */

type SheetSpec = { name: string; rows: unknown[][] };

/** An .xlsx with the given sheets; a cell may be a value or an ExcelJS formula object. */
export async function xlsx(sheets: SheetSpec[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name);
    for (const r of s.rows) ws.addRow(r as ExcelJS.CellValue[]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export interface Part {
  name: string;
  value?: string;
  filename?: string;
  content?: Buffer;
  type?: string;
}

/** A multipart/form-data body for app.inject. */
export function multipartBody(parts: Part[]) {
  const boundary = `----mostrador${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (p.filename !== undefined) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.content ?? Buffer.alloc(0));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value ?? ''}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
