/**
 * Inputs that are not PDFs, made into PDFs before a form is filled (task code only): DOCX and XLSX
 * through LibreOffice (`soffice`) where it is installed; PNG and JPEG pages wrapped in a PDF page.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { DocumentKind } from '../documents/sniff.ts';
import { RunFailure } from '../platform/errors.ts';
import { libreOffice } from './soffice.ts';

async function convertWithLibreOffice(bytes: Uint8Array, kind: 'docx' | 'xlsx', deadline: number): Promise<Uint8Array> {
  const soffice = libreOffice();
  if (!soffice) throw new RunFailure('document_unsupported', `${kind.toUpperCase()} forms need LibreOffice (soffice) to be converted to PDF, and it is not installed here; send a PDF`);
  const dir = await mkdtemp(join(tmpdir(), 'quire-convert-'));
  try {
    const input = join(dir, `form.${kind}`);
    await writeFile(input, bytes);
    await new Promise<void>((resolve, reject) => {
      execFile(soffice, ['--headless', '--norestore', `-env:UserInstallation=file://${join(dir, 'profile')}`, '--convert-to', 'pdf', '--outdir', dir, input], { timeout: Math.max(5_000, deadline - Date.now()) }, (error) =>
        error ? reject(new RunFailure('document_invalid', `LibreOffice could not convert the ${kind.toUpperCase()} to PDF`)) : resolve(),
      );
    });
    return new Uint8Array(await readFile(join(dir, 'form.pdf')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An image as a one-page PDF, 8.5 inches wide (its own proportions). */
async function imageAsPdf(bytes: Uint8Array, kind: 'png' | 'jpeg'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = kind === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  const width = 612;
  const height = (image.height / image.width) * width;
  pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  return pdf.save();
}

export async function asPdf(bytes: Uint8Array, kind: DocumentKind, deadline: number): Promise<Uint8Array> {
  switch (kind) {
    case 'pdf':
      return bytes;
    case 'docx':
    case 'xlsx':
      return convertWithLibreOffice(bytes, kind, deadline);
    case 'png':
    case 'jpeg':
      return imageAsPdf(bytes, kind);
    default:
      throw new RunFailure('document_unsupported', `A ${kind.toUpperCase()} file is not a form: send a PDF (DOCX and XLSX are converted where LibreOffice is installed)`);
  }
}
