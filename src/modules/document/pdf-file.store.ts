import { createHash } from 'node:crypto';
import { newId } from '../../shared/ids';
import type { Ctx } from '../../kernel/context';

/**
 * Where template files live: PostgreSQL (`pdf_file`, bytea), written with the caller's
 * EntityManager, so a file and the template row that points at it are committed in one
 * transaction (a failure leaves neither) and every server process sharing the database sees
 * the same files. The file id is the storage key; the bucket names the table.
 */
export const PDF_BUCKET = 'postgresql:pdf_file';

export const storageKeyOf = (fileId: string) => `${fileId}.pdf`;

/** Stores a file; returns its id. */
export async function putPdf(ctx: Ctx, companyId: string, bytes: Uint8Array): Promise<string> {
  const id = newId();
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await ctx.em.execute(`insert into pdf_file (id, company_id, content, byte_size, sha256) values (?, ?, ?, ?, ?)`, [
    id,
    companyId,
    buf,
    buf.length,
    createHash('sha256').update(buf).digest('hex'),
  ]);
  return id;
}

/** A stored file's bytes, or null. */
export async function getPdf(ctx: Ctx, companyId: string, fileId: string): Promise<Buffer | null> {
  const rows = await ctx.em.execute<{ content: Buffer }[]>(`select content from pdf_file where company_id = ? and id = ?`, [
    companyId,
    fileId,
  ]);
  return rows.length ? rows[0].content : null;
}

export async function removePdf(ctx: Ctx, companyId: string, fileId: string): Promise<void> {
  await ctx.em.execute(`delete from pdf_file where company_id = ? and id = ?`, [companyId, fileId]);
}
