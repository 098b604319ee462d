import fastifyMultipart from '@fastify/multipart';
import {
  AdminStats,
  AdminStatsQuery,
  MAX_IMPORT_BYTES,
  OrdersExportQuery,
  PRODUCTS_IMPORT_PATH,
  ProductsImportQuery,
  ProductsImportResult,
  TradeInsExportQuery,
} from '@pixel-vault/shared';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';
import { readMultipart } from '../../lib/multipart.js';
import type { BackupService } from './admin.backup.js';
import type { ProductsImportService } from './admin.import.js';
import type { AdminService, CsvDownload } from './admin.service.js';

/** A file the browser saves rather than shows (issue 15). */
function download(reply: { header(name: string, value: string): unknown }, { filename }: CsvDownload) {
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${filename}"`);
  reply.header('cache-control', 'no-store');
}

export async function adminRoutes(
  app: App,
  { admin, productsImport }: { admin: AdminService; productsImport: ProductsImportService },
) {
  app.get(
    '/api/admin/stats',
    { schema: { querystring: AdminStatsQuery, response: { 200: AdminStats } }, config: { access: 'admin' } },
    async (request) => admin.stats(request.query),
  );
  app.get(
    '/api/admin/export/orders.csv',
    {
      schema: {
        summary: 'Orders as CSV (one row per line)',
        querystring: OrdersExportQuery,
        doc: { answers: { 200: { mediaType: 'text/csv', description: 'orders.csv, streamed' } } },
      },
      config: { access: 'admin' },
    },
    async (request, reply) => {
      const csv = admin.ordersCsv(request.query);
      download(reply, csv);
      return reply.send(csv.stream);
    },
  );
  // Issue 35: the orders export's sibling, one row per line of each trade-in created in the range.
  app.get(
    '/api/admin/export/tradeins.csv',
    {
      schema: {
        summary: 'Trade-ins as CSV (one row per line)',
        querystring: TradeInsExportQuery,
        doc: { answers: { 200: { mediaType: 'text/csv', description: 'tradeins.csv, streamed' } } },
      },
      config: { access: 'admin' },
    },
    async (request, reply) => {
      const csv = admin.tradeInsCsv(request.query);
      download(reply, csv);
      return reply.send(csv.stream);
    },
  );
  const productsCsvSchema = {
    summary: 'Products as CSV (the import format)',
    doc: { answers: { 200: { mediaType: 'text/csv', description: 'products.csv, streamed' } } },
  };
  app.get(
    '/api/admin/export/products.csv',
    { schema: productsCsvSchema, config: { access: 'admin' } },
    async (_request, reply) => {
      const csv = admin.productsCsv();
      download(reply, csv);
      return reply.send(csv.stream);
    },
  );

  // Product CSV import (issue 15, docs/admin-import.md): the one multipart route here, in its own scope.
  await app.register(async (scope: App) => {
    await scope.register(fastifyMultipart);
    scope.post(
      PRODUCTS_IMPORT_PATH,
      {
        schema: {
          summary: 'Import products from a CSV file (multipart/form-data, field file)',
          querystring: ProductsImportQuery,
          response: { 200: ProductsImportResult, 422: ProductsImportResult },
          doc: {
            body: {
              mediaTypes: ['multipart/form-data'],
              schema: z.object({}),
              files: { file: 'The CSV file (docs/admin-import.md), one file' },
            },
          },
        },
        config: { access: 'admin' },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError(
            415,
            'Send the CSV file as multipart/form-data, in the field file',
            'MULTIPART_REQUIRED',
          );
        }
        const { files } = await readMultipart(request, {
          maxFileBytes: MAX_IMPORT_BYTES,
          maxFiles: 1,
          tooManyFilesMessage: 'Send one CSV file',
          tooLargeMessage: `The file must be at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it into several files`,
        });
        const [file] = files;
        if (!file) throw new AppError(400, 'Send the CSV file in the field file', 'FILE_REQUIRED');
        const result = await productsImport.run(requireUser(request), file, request.query);
        return reply.code(result.errors.length > 0 ? 422 : 200).send(result);
      },
    );
  });
}

// Backups (issue 15, docs/backups.md): the database and the uploaded images as one .tar.gz download.
export async function adminBackupRoutes(app: App, { backup }: { backup: BackupService }) {
  const backupSchema = {
    summary: 'Back up the database and images (.tar.gz)',
    doc: {
      answers: {
        200: { mediaType: 'application/gzip', description: 'The backup (docs/backups.md), streamed' },
      },
    },
  };
  app.get(
    '/api/admin/backup',
    { schema: backupSchema, config: { access: 'admin' } },
    async (request, reply) => {
      const download = await backup.start(requireUser(request).id);
      reply.header('content-type', 'application/gzip');
      reply.header('content-disposition', `attachment; filename="${download.filename}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(download.stream);
    },
  );
}
