// The backup's layout (issue 15): what GET /api/admin/backup writes and readBackup reads back.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const BACKUP_FORMAT = 'pixel-vault-backup';
/** Raised when the layout below changes; a restore refuses a format newer than it knows. */
export const BACKUP_FORMAT_VERSION = 1;

/** The archive's entries, in the order they are written. */
export const BACKUP_ENTRIES = {
  manifest: 'manifest.json',
  /** PGlite: its data directory as the tar `dumpDataDir('none')` makes (the outer gzip compresses it). */
  pglite: 'database/pglite-data.tar',
  /** PostgreSQL: pg_dump --format=custom, cut in parts (a tar entry's size is written before its bytes). */
  pgDumpPart: (n: number) => `database/pg_dump.part-${String(n).padStart(6, '0')}`,
  uploads: 'uploads/',
  /** Written last: a download cut short (a dead connection, pg_dump failing late) lacks it. */
  end: 'end.json',
} as const;

/** A part of pg_dump's output in the archive, numbered from 1. */
export const PG_DUMP_PART = /^database\/pg_dump\.part-(\d{6})$/;

/** pg_dump's output is cut in parts this big: the most of it ever held in memory at once. */
export const PG_DUMP_PART_BYTES = 8 * 1024 * 1024;

export const BackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  engine: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  /** Migrations applied to the database when it was backed up: a restore runs the newer ones. */
  migrations: z.number().int().min(0),
  appVersion: z.string(),
  databaseVersion: z.string(),
  images: z.union([
    z.object({ included: z.literal(true), storage: z.literal('local') }),
    z.object({
      included: z.literal(false),
      storage: z.literal('s3'),
      bucket: z.string(),
      prefix: z.string(),
      note: z.string(),
    }),
  ]),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

export const BackupEnd = z.object({
  databaseBytes: z.number().int().min(0),
  databaseSha256: z.string().regex(/^[0-9a-f]{64}$/),
  databaseParts: z.number().int().min(1),
  images: z.number().int().min(0),
  imageBytes: z.number().int().min(0),
});
export type BackupEnd = z.infer<typeof BackupEnd>;

/** apps/server/package.json, from src/modules/admin and dist/modules/admin alike (same depth). */
function readAppVersion(): string {
  try {
    const file = new URL('../../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
export const APP_VERSION = readAppVersion();

/** `20261123T081500Z`: sorts by time, and is safe in a file name everywhere. */
export function backupTimestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}
