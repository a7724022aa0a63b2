import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** The raw answer, undecoded, to see what travels. */
function raw(url: string, encoding: string): Promise<{ status: number; encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
    }).on('error', reject);
  });
}

test('the landing and the app assets travel precompressed (brotli or gzip) as the browser accepts, the same once decoded', async ({
  baseURL,
}) => {
  const plain = await raw(`${baseURL}/`, 'identity');
  expect(plain.status).toBe(200);
  expect(plain.encoding).toBeUndefined();
  const br = await raw(`${baseURL}/`, 'br, gzip');
  expect(br.encoding).toBe('br');
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  expect(br.body.length).toBeLessThan(plain.body.length / 3);

  const app = (await raw(`${baseURL}/login`, 'identity')).body.toString();
  const script = /<script[^>]+src="([^"]+\.js)"/.exec(app)?.[1];
  expect(script, 'app.html names its script').toBeTruthy();
  const js = await raw(`${baseURL}${script}`, 'gzip');
  const jsPlain = await raw(`${baseURL}${script}`, 'identity');
  expect(js.encoding).toBe('gzip');
  expect(jsPlain.encoding).toBeUndefined();
  expect(gunzipSync(js.body).equals(jsPlain.body)).toBe(true);
  expect(js.body.length).toBeLessThan(jsPlain.body.length / 2);
});
