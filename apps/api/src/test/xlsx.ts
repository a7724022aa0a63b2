import ExcelJS from 'exceljs';

/** The rows of an exported workbook's first sheet (or the named one), each as its cell values. */
export async function readXlsx(body: Buffer, sheet?: string): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = sheet ? wb.getWorksheet(sheet) : wb.worksheets[0];
  if (!ws) throw new Error(`sin hoja ${sheet}`);
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}
