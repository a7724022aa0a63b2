import { X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { caDer } from '../../lib/lan-tls.js';

/** HTTPS on the shop's network, as main.ts started it (decision 0055). */
export interface CertificadoSettings {
  /** The local CA's certificate (PEM): what tablets install. */
  caPem: string;
  httpsPort: number;
  /** Where to open Mostrador over HTTPS from the shop's network (`https://…:port`). */
  urls: string[];
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f8fafc;color:#0f172a;line-height:1.5}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin:0 0 .5rem}
section{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem 1.25rem;margin:1rem 0}
ol{padding-left:1.4rem;margin:.25rem 0}li{margin:.35rem 0}
code,.huella{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;overflow-wrap:anywhere}
.huella{background:#f1f5f9;border-radius:.5rem;padding:.5rem .75rem;display:block}
.botones{display:flex;flex-wrap:wrap;gap:.75rem;margin:.75rem 0}
.boton{display:inline-block;background:#2563eb;color:#fff;text-decoration:none;padding:.6rem 1rem;border-radius:.5rem;font-weight:600}
.boton.sec{background:#fff;color:#2563eb;border:1px solid #2563eb}
.boton:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.nota{color:#475569;font-size:.9rem}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es-AR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Mostrador</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body><main>
<h1>${esc(title)}</h1>
${body}
</main></body>
</html>`;
}

function enabledPage(s: CertificadoSettings): string {
  const x = new X509Certificate(s.caPem);
  const pos = esc(`${s.urls[0] ?? `https://(dirección de la PC):${s.httpsPort}`}/pos`);
  const urls = s.urls.length
    ? `<ul>${s.urls.map((u) => `<li><code>${esc(u)}/pos</code></li>`).join('')}</ul>`
    : `<p><code>https://(dirección de la PC):${s.httpsPort}/pos</code></p>`;
  return page(
    'Abrir Mostrador por HTTPS en el local',
    `<p>Para que una tablet pueda volver a abrir el punto de venta sin internet, tiene que abrir Mostrador por HTTPS.
Mostrador creó en esta PC su propio certificado; instalalo una vez en cada tablet o computadora y después abrí:</p>
${urls}
<section aria-labelledby="descarga">
<h2 id="descarga">El certificado</h2>
<div class="botones">
<a class="boton" href="/certificado/mostrador-ca.crt" download>Descargar el certificado (.crt)</a>
<a class="boton sec" href="/certificado/mostrador-ca.pem" download>Descargarlo en formato PEM (.pem)</a>
</div>
<p class="nota">El <code>.crt</code> (formato DER) sirve para Android, iPad/iPhone y Windows. El <code>.pem</code> es el mismo certificado en texto, para otros sistemas.</p>
<p>Antes de instalarlo, compará su huella SHA-256 con la que muestra la ventana de Mostrador en la PC al iniciar:</p>
<span class="huella" data-testid="huella-sha256">${esc(x.fingerprint256)}</span>
<p class="nota">Windows muestra la huella SHA-1 («Huella digital»): <code>${esc(x.fingerprint.replace(/:/g, ' '))}</code>.
Si no coinciden, no lo instales.</p>
</section>
<section aria-labelledby="android">
<h2 id="android">Android</h2>
<ol>
<li>Desde la tablet, abrí esta página y tocá «Descargar el certificado (.crt)».</li>
<li>Abrí Ajustes › Seguridad (o Seguridad y privacidad › Más ajustes) › Cifrado y credenciales › Instalar un certificado.</li>
<li>Elegí «Certificado de CA», tocá «Instalar de todas formas» y elegí <code>mostrador-ca.crt</code> entre los archivos descargados.</li>
<li>Abrí Chrome en <code>${pos}</code> y, desde el menú, elegí «Instalar aplicación».</li>
</ol>
</section>
<section aria-labelledby="ios">
<h2 id="ios">iPad y iPhone</h2>
<ol>
<li>Abrí esta página en Safari, tocá «Descargar el certificado (.crt)» y después «Permitir».</li>
<li>Abrí Configuración › Perfil descargado (o General › VPN y gestión de dispositivos) y tocá «Instalar».</li>
<li>Andá a Configuración › General › Información › Ajustes de confianza de certificados y activá «Mostrador CA local».</li>
<li>Abrí Safari en <code>${pos}</code> y tocá Compartir › «Agregar a inicio».</li>
</ol>
</section>
<section aria-labelledby="windows">
<h2 id="windows">Windows</h2>
<ol>
<li>Descargá <code>mostrador-ca.crt</code> y abrilo con doble clic.</li>
<li>Hacé clic en «Instalar certificado…», elegí «Equipo local» y seguí.</li>
<li>Elegí «Colocar todos los certificados en el siguiente almacén» › Examinar › «Entidades de certificación raíz de confianza».</li>
<li>Terminá, cerrá Chrome o Edge y volvé a abrirlo en <code>${pos}</code>.</li>
</ol>
</section>
<p class="nota">La clave del certificado no sale de esta PC. Si cambia el nombre o la dirección de la PC, Mostrador renueva solo el certificado del servidor: no hace falta volver a instalar nada en las tablets.</p>`,
  );
}

const disabledPage = () =>
  page(
    'HTTPS en el local no está activado',
    `<section><p>Este Mostrador atiende solo por HTTP. Para que las tablets vuelvan a abrir el punto de venta sin internet, activá HTTPS:</p>
<ol>
<li>Iniciá Mostrador con <code>npm start</code> (lo activa en el puerto 3443) o con la variable <code>HTTPS_PORT</code>, por ejemplo <code>HTTPS_PORT=3443</code>.</li>
<li>Volvé a abrir esta página: vas a poder descargar el certificado y ver cómo instalarlo.</li>
</ol></section>`,
  );

/**
 * `/certificado`: how to trust Mostrador's local CA on a tablet, without logging in and over plain
 * HTTP (the tablet does not trust HTTPS yet), with the CA's certificate to download.
 */
export async function certificadoRoutes(app: FastifyInstance, settings: CertificadoSettings | undefined) {
  const hide = { schema: { hide: true } };
  app.get('/certificado', hide, (_req, reply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(settings ? enabledPage(settings) : disabledPage()),
  );
  const notEnabled = { detail: 'HTTPS en el local no está activado en este Mostrador.', code: 'NOT_FOUND' };
  app.get('/certificado/mostrador-ca.crt', hide, (_req, reply) => {
    if (!settings) return reply.status(404).send(notEnabled);
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Disposition', 'attachment; filename="mostrador-ca.crt"')
      .type('application/x-x509-ca-cert')
      .send(caDer(settings.caPem));
  });
  app.get('/certificado/mostrador-ca.pem', hide, (_req, reply) => {
    if (!settings) return reply.status(404).send(notEnabled);
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Disposition', 'attachment; filename="mostrador-ca.pem"')
      .type('application/x-pem-file')
      .send(settings.caPem);
  });
}
