import { randomBytes } from 'node:crypto';
import type { Res, TestApp } from './app';

export interface Part {
  name: string;
  data: Buffer | Uint8Array | string;
  /** present for file parts */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body, as a browser or curl -F sends it. */
export function multipart(parts: Part[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename ? `\r\nContent-Type: ${p.contentType ?? 'application/pdf'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof p.data === 'string' ? Buffer.from(p.data) : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Sends a template upload (create with POST, update with PATCH). */
export function upload(
  t: TestApp,
  method: 'POST' | 'PATCH',
  path: string,
  parts: { file?: Uint8Array | Buffer; fields?: unknown; filename?: string; contentType?: string },
  key?: string,
): Promise<Res> {
  const list: Part[] = [];
  if (parts.file) list.push({ name: 'file', data: parts.file, filename: parts.filename ?? 'template.pdf', contentType: parts.contentType });
  if (parts.fields !== undefined)
    list.push({ name: 'fields', data: typeof parts.fields === 'string' ? parts.fields : JSON.stringify(parts.fields) });
  const { body, headers } = multipart(list);
  return t.call(method, path, { body, headers, ...(key !== undefined ? { key } : {}) });
}
