// Reading a backup back (issue 15): `npm run db:restore` (cli/restore-backup.ts) checks and extracts it.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { isSafeKey } from '../../lib/storage.js';
import {
  BACKUP_ENTRIES,
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupEnd,
  BackupManifest,
  PG_DUMP_PART,
} from './admin.backup.format.js';

/** What readBackup found and where it put it. */
export interface ExtractedBackup {
  manifest: BackupManifest;
  end: BackupEnd;
  /** The PGlite data directory tar, or the pg_dump archive (parts joined). */
  databaseFile: string;
  /** Images by storage key, each in a file under the extraction directory. */
  images: { key: string; file: string }[];
}

/** A backup refused for a reason a person can act on (not ours, damaged, from elsewhere). */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/**
 * Reads a backup made by GET /api/admin/backup into `dir`, checking as it goes: the manifest first
 * (handed to `checkManifest`, which may refuse before anything big is read), the database's size and
 * SHA-256 against end.json, and that end.json is there at all (a cut download lacks it).
 */
export async function readBackup(
  file: string,
  dir: string,
  checkManifest: (manifest: BackupManifest) => Promise<void> | void,
): Promise<ExtractedBackup> {
  const notOurs = `${file} is not a Pixel Vault backup (a .tar.gz downloaded from GET /api/admin/backup)`;
  const input = createReadStream(file);
  const gunzip = createGunzip();
  const extract = tar.extract();
  input.on('error', (error) => extract.destroy(error));
  gunzip.on('error', (error) => extract.destroy(error));
  input.pipe(gunzip).pipe(extract);

  let manifest: BackupManifest | undefined;
  let refusal: unknown;
  let end: BackupEnd | undefined;
  const databaseFile = path.join(dir, 'database');
  const hash = createHash('sha256');
  let databaseBytes = 0;
  let databaseParts = 0;
  const images: { key: string; file: string }[] = [];
  const imagesDir = path.join(dir, 'uploads');

  const readSmall = async (entry: AsyncIterable<Buffer>, limit: number) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of entry) {
      size += chunk.byteLength;
      if (size > limit) throw new BackupFileError(notOurs);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  };
  const parseJson = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };

  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (!manifest) {
        if (name !== BACKUP_ENTRIES.manifest) throw new BackupFileError(notOurs);
        const raw = parseJson(await readSmall(entry as unknown as AsyncIterable<Buffer>, 64 * 1024));
        if ((raw as { format?: unknown } | undefined)?.format !== BACKUP_FORMAT) {
          throw new BackupFileError(notOurs);
        }
        const version = (raw as { formatVersion?: unknown }).formatVersion;
        if (typeof version === 'number' && version > BACKUP_FORMAT_VERSION) {
          throw new BackupFileError(
            `${file} was made by a newer Pixel Vault (backup format ${version}; this one reads up to ${BACKUP_FORMAT_VERSION}): upgrade the shop first`,
          );
        }
        const parsed = BackupManifest.safeParse(raw);
        if (!parsed.success) throw new BackupFileError(`${notOurs}: its manifest.json is not valid`);
        manifest = parsed.data;
        try {
          await checkManifest(manifest);
        } catch (error) {
          refusal = error;
          throw error;
        }
        continue;
      }
      if (end) throw new BackupFileError(`${file} is damaged: entries after end.json`);
      if (name === BACKUP_ENTRIES.end) {
        const parsed = BackupEnd.safeParse(
          parseJson(await readSmall(entry as unknown as AsyncIterable<Buffer>, 64 * 1024)),
        );
        if (!parsed.success) throw new BackupFileError(`${file} is damaged: its end.json is not valid`);
        end = parsed.data;
        continue;
      }
      const part = PG_DUMP_PART.exec(name);
      if (name === BACKUP_ENTRIES.pglite || part) {
        const expectedEngine = part ? 'postgres' : 'pglite';
        const n = part ? Number(part[1]) : 1;
        if (manifest.engine !== expectedEngine || n !== databaseParts + 1) {
          throw new BackupFileError(`${file} is damaged: unexpected entry ${name}`);
        }
        databaseParts = n;
        const out = createWriteStream(databaseFile, { flags: n === 1 ? 'w' : 'a' });
        for await (const chunk of entry as unknown as AsyncIterable<Buffer>) {
          hash.update(chunk);
          databaseBytes += chunk.byteLength;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        out.end();
        await finished(out);
        continue;
      }
      if (name.startsWith(BACKUP_ENTRIES.uploads)) {
        const key = name.slice(BACKUP_ENTRIES.uploads.length);
        // Keys are checked as storage checks them: no `..`, no absolute paths out of the directory.
        if (!isSafeKey(key)) throw new BackupFileError(`${file} is damaged: unsafe image name ${name}`);
        const target = path.join(imagesDir, key);
        await mkdir(path.dirname(target), { recursive: true });
        const out = createWriteStream(`${target}.part`);
        for await (const chunk of entry as unknown as AsyncIterable<Buffer>) {
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        out.end();
        await finished(out);
        await rename(`${target}.part`, target);
        images.push({ key, file: target });
        continue;
      }
      // Entries a later version may add: skipped (a newer format number would have been refused).
      for await (const chunk of entry) void chunk;
    }
  } catch (error) {
    // The caller's own refusal (the target holds data, another engine) goes back to it as it was.
    if (error instanceof BackupFileError || (refusal !== undefined && error === refusal)) throw error;
    if (!manifest) throw new BackupFileError(notOurs);
    throw new BackupFileError(
      `${file} is damaged or incomplete (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    input.destroy();
  }

  if (!manifest) throw new BackupFileError(notOurs);
  if (!end) {
    throw new BackupFileError(
      `${file} is incomplete: it ends before end.json (a download cut short, or the backup failed half-way)`,
    );
  }
  if (
    end.databaseParts !== databaseParts ||
    end.databaseBytes !== databaseBytes ||
    end.databaseSha256 !== hash.digest('hex')
  ) {
    throw new BackupFileError(`${file} is damaged: the database does not match its checksum`);
  }
  if (end.images !== images.length) {
    throw new BackupFileError(`${file} is damaged: ${images.length} of ${end.images} images found`);
  }
  return { manifest, end, databaseFile, images };
}
