import { useEffect, useState } from 'react';

/** The QR's dark modules as one SVG path ("M x y h1v1h-1z" per module), with a 2-module margin. */
export function qrPath(matrix: boolean[][]): string {
  let d = '';
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x + 2} ${y + 2}h1v1h-1z`;
    }),
  );
  return d;
}

/** The QR library is loaded on demand: only screens that print an invoice download it. */
async function qrMatrix(text: string): Promise<boolean[][]> {
  const { default: qrcode } = await import('qrcode-generator');
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)));
}

/**
 * The QR of RG 4892 (ARCA's URL with the comprobante's data), as a scalable SVG; any other text
 * too (Mercado Pago's dynamic QR) with its own label.
 */
export function ArcaQr({
  url,
  size,
  label = 'Código QR de ARCA',
  testId = 'arca-qr',
}: {
  url: string;
  size: string;
  label?: string;
  testId?: string;
}) {
  const [state, setState] = useState<{ url: string; matrix: boolean[][] } | null>(null);
  useEffect(() => {
    let live = true;
    qrMatrix(url).then(
      (matrix) => live && setState({ url, matrix }),
      () => live && setState(null),
    );
    return () => {
      live = false;
    };
  }, [url]);
  const matrix = state?.url === url ? state.matrix : null;
  if (!matrix) return <div style={{ width: size, height: size }} aria-hidden />;
  const n = matrix.length + 4;
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid={testId}
      data-url={url}
      viewBox={`0 0 ${n} ${n}`}
      style={{ width: size, height: size }}
      shapeRendering="crispEdges"
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={qrPath(matrix)} fill="#000" />
    </svg>
  );
}
