/** Where LibreOffice is (DOCX/XLSX forms are converted to PDF with it); no engine imported here. */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The LibreOffice binary on PATH (or QUIRE_SOFFICE), or undefined. */
export function libreOffice(): string | undefined {
  const explicit = process.env.QUIRE_SOFFICE;
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['soffice', 'libreoffice']) {
      const candidate = join(dir, name);
      if (dir && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}
