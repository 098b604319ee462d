import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_IMPORT_BYTES } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { attachmentName } from './api';
import { ExportPanel } from './ExportPanel';
import { ImportProductsPanel } from './ImportProductsPanel';
import { REVOKE_AFTER_MS } from '../../ui/saveFile';
import { adminState, csvFile, makeImportResult, stubObjectUrls, tabTo } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const TOKEN = adminState.auth.userInfo.token;
const ORDERS_CSV = '_id,createdAt\r\nabc,2026-11-20T10:00:00.000Z\r\n';

/** The temporary links clicked to save a file: where they pointed and the name they saved under. */
function catchSaves() {
  const saves: { href: string; download: string; inDocument: boolean }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saves.push({ href: this.href, download: this.download, inDocument: this.isConnected });
  });
  return saves;
}

function csvResponse(body: string, filename: string) {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
    },
  });
}

describe('Export', () => {
  it("fetches the orders CSV with the admin's token and the dates, then saves it under the server's name", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { create, revoke } = stubObjectUrls();
    const saves = catchSaves();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: Request[] = [];
    const mock = stubFetch(async (request) => {
      seen.push(request);
      await gate;
      return csvResponse(ORDERS_CSV, 'orders-from-2026-11-01-to-2026-11-23.csv');
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithProviders(<ExportPanel />, { preloadedState: adminState });
    const form = screen.getByRole('form', { name: 'Export orders and trade-ins' });
    await user.type(within(form).getByLabelText('From'), '2026-11-01');
    await user.type(within(form).getByLabelText('To'), '2026-11-23');
    await user.click(within(form).getByRole('button', { name: 'Export orders' }));

    expect(await screen.findByRole('button', { name: 'Exporting orders...' })).toBeDisabled();
    expect(calledUrls(mock)).toEqual(['/api/admin/export/orders.csv?from=2026-11-01&to=2026-11-23']);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    release();

    expect(await within(form).findByRole('status')).toHaveTextContent(
      'Saved orders-from-2026-11-01-to-2026-11-23.csv',
    );
    expect(screen.getByRole('button', { name: 'Export orders' })).toBeEnabled();
    expect(saves).toEqual([
      { href: 'blob:preview-1', download: 'orders-from-2026-11-01-to-2026-11-23.csv', inDocument: true },
    ]);
    // The link was temporary; the file's bytes are the server's.
    expect(document.querySelector('a[download]')).toBeNull();
    const blob = (create.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toBe(ORDERS_CSV);
    expect(revoke).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(REVOKE_AFTER_MS));
    expect(revoke).toHaveBeenCalledWith('blob:preview-1');
  });

  it('exports every order when no date is given, and every product', async () => {
    stubObjectUrls();
    const saves = catchSaves();
    const mock = stubFetch((_request, url) =>
      url.pathname.endsWith('products.csv')
        ? csvResponse('_id,productName\r\n', 'products-2026-11-23.csv')
        : csvResponse(ORDERS_CSV, 'orders.csv'),
    );
    const user = userEvent.setup();
    renderWithProviders(<ExportPanel />, { preloadedState: adminState });
    await user.click(screen.getByRole('button', { name: 'Export orders' }));
    await waitFor(() => expect(saves).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Export products' }));
    await waitFor(() => expect(saves).toHaveLength(2));
    expect(calledUrls(mock)).toEqual(['/api/admin/export/orders.csv', '/api/admin/export/products.csv']);
    expect(saves.map((save) => save.download)).toEqual(['orders.csv', 'products-2026-11-23.csv']);
  });

  it("exports the trade-ins over the same days, a row per item, and saves them under the server's name (issue 35)", async () => {
    stubObjectUrls();
    const saves = catchSaves();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const mock = stubFetch(async () => {
      await gate;
      return csvResponse('tradeInId,createdAt\r\n', 'tradeins-from-2026-11-01.csv');
    });
    const user = userEvent.setup();
    renderWithProviders(<ExportPanel />, { preloadedState: adminState });
    const form = screen.getByRole('form', { name: 'Export orders and trade-ins' });
    await user.type(within(form).getByLabelText('From'), '2026-11-01');
    await tabTo(user, within(form).getByRole('button', { name: 'Export trade-ins' }));
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('button', { name: 'Exporting trade-ins...' })).toBeDisabled();
    // One download at a time: the orders wait for it.
    expect(screen.getByRole('button', { name: 'Export orders' })).toBeDisabled();
    release();
    await waitFor(() =>
      expect(within(form).getByRole('status')).toHaveTextContent('Saved tradeins-from-2026-11-01.csv'),
    );
    expect(calledUrls(mock)).toEqual(['/api/admin/export/tradeins.csv?from=2026-11-01']);
    expect(saves.map((save) => save.download)).toEqual(['tradeins-from-2026-11-01.csv']);
    expect(screen.getByRole('button', { name: 'Export trade-ins' })).toBeEnabled();
  });

  it('refuses a range that ends before it starts without asking the server', async () => {
    const mock = stubFetch(() => csvResponse(ORDERS_CSV, 'orders.csv'));
    const user = userEvent.setup();
    renderWithProviders(<ExportPanel />, { preloadedState: adminState });
    await user.type(screen.getByLabelText('From'), '2026-11-23');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Export orders' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('from must not be after to');
    await user.click(screen.getByRole('button', { name: 'Export trade-ins' }));
    expect(screen.getByRole('alert')).toHaveTextContent('from must not be after to');
    expect(mock).not.toHaveBeenCalled();
  });

  it("shows the server's message when an export is refused, and saves nothing", async () => {
    const { create } = stubObjectUrls();
    const saves = catchSaves();
    stubFetch(() => jsonResponse({ message: 'Admins only' }, 403));
    const user = userEvent.setup();
    renderWithProviders(<ExportPanel />, { preloadedState: adminState });
    await user.click(screen.getByRole('button', { name: 'Export products' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Admins only');
    expect(saves).toEqual([]);
    expect(create).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Export products' })).toBeEnabled();
  });

  it('reads the file name of a Content-Disposition header', () => {
    expect(attachmentName('attachment; filename="orders.csv"')).toBe('orders.csv');
    expect(attachmentName('attachment; filename=products.csv')).toBe('products.csv');
    expect(attachmentName(null)).toBeUndefined();
  });
});

const TWO_ROWS = makeImportResult({
  created: 1,
  updated: 1,
  changes: [
    { row: 1, action: 'create', _id: null, productName: 'Pong Deluxe', fields: [] },
    {
      row: 2,
      action: 'update',
      _id: '00000000-0000-4000-8000-000000000201',
      productName: 'Zelda II',
      fields: ['productPrice', 'stockQuantity'],
    },
  ],
});

/** The import route: a dry run answers `preview`, an import `imported` (each may be a Response). */
function serveImport({
  preview = TWO_ROWS,
  imported = { ...TWO_ROWS, dryRun: false },
}: {
  preview?: unknown;
  imported?: unknown;
} = {}) {
  const sent: { dryRun: string | null; hasFile: boolean; authorization: string | null }[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname !== '/api/admin/import/products' || request.method !== 'POST') {
      return jsonResponse({ message: 'Not found' }, 404);
    }
    const form = await request.formData();
    const dryRun = url.searchParams.get('dryRun');
    sent.push({ dryRun, hasFile: form.has('file'), authorization: request.headers.get('authorization') });
    const answer = dryRun === 'true' ? preview : imported;
    return answer instanceof Response ? answer : jsonResponse(answer);
  });
  return { mock, sent };
}

describe('Import products', () => {
  it('previews the file, then imports it only after that clean preview, and says what happened', async () => {
    const { sent } = serveImport();
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    const preview = screen.getByRole('button', { name: 'Preview' });
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(preview).toBeDisabled();
    expect(importButton).toBeDisabled();

    await user.upload(screen.getByLabelText('CSV file'), csvFile('_id,productName\r\n,Pong Deluxe\r\n'));
    expect(importButton).toBeDisabled();
    await user.click(preview);

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Preview: 1 to create, 1 to update, 0 unchanged. Nothing is saved until you import.',
    );
    const table = screen.getByRole('table', { name: 'What would change' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'RowActionNameChanged fields',
      '1CreatePong DeluxeNew product',
      '2UpdateZelda IIproductPrice, stockQuantity',
    ]);
    expect(importButton).toBeEnabled();

    await user.click(importButton);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Imported: 1 created, 1 updated, 0 unchanged.',
    );
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(sent).toEqual([
      { dryRun: 'true', hasFile: true, authorization: `Bearer ${TOKEN}` },
      { dryRun: 'false', hasFile: true, authorization: `Bearer ${TOKEN}` },
    ]);
    // Done: importing the same file again needs a new preview.
    expect(importButton).toBeDisabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lists the rows of a refused file (422) and keeps Import closed', async () => {
    serveImport({
      preview: jsonResponse(
        makeImportResult({
          message: 'The file has 2 rows with errors: nothing was imported',
          errors: [
            { row: 2, message: 'productPrice must be a number' },
            { row: 5, message: 'No product with _id 123' },
          ],
        }),
        422,
      ),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    await user.upload(screen.getByLabelText('CSV file'), csvFile('broken'));
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: The file has 2 rows with errors: nothing was imported',
    );
    const errors = screen.getByRole('list', { name: 'Row errors' });
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Row 2: productPrice must be a number', 'Row 5: No product with _id 123']);
    expect(screen.getByRole('status')).toHaveTextContent('Nothing was previewed: 2 row errors.');
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it('lists the rows when the import itself is refused (the catalogue changed since the preview)', async () => {
    serveImport({
      imported: jsonResponse(
        makeImportResult({
          dryRun: false,
          message: 'The file has 1 row with errors: nothing was imported',
          errors: [{ row: 2, message: 'No product with _id 00000000-0000-4000-8000-000000000201' }],
        }),
        422,
      ),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    await user.upload(screen.getByLabelText('CSV file'), csvFile('two rows'));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await user.click(await screen.findByRole('button', { name: 'Import' }, { timeout: 2000 }));
    expect(await screen.findByText('Nothing was imported: 1 row error.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Row errors' })).toHaveTextContent(
      'Row 2: No product with _id 00000000-0000-4000-8000-000000000201',
    );
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it("shows the server's message for a refusal without rows (a file that is not a CSV)", async () => {
    serveImport({ preview: jsonResponse({ message: 'The header row must be _id,productName,...' }, 400) });
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    await user.upload(screen.getByLabelText('CSV file'), csvFile('hello'));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: The header row must be _id,productName,...',
    );
    expect(screen.queryByRole('list', { name: 'Row errors' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it('closes Import again when another file is chosen after the preview', async () => {
    serveImport();
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    const input = screen.getByLabelText('CSV file');
    await user.upload(input, csvFile('first', 'first.csv'));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled());
    await user.upload(input, csvFile('second', 'second.csv'));
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('refuses a file over MAX_IMPORT_BYTES before uploading it', async () => {
    const { mock } = serveImport();
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    const big = csvFile('x', 'huge.csv');
    Object.defineProperty(big, 'size', { value: MAX_IMPORT_BYTES + 1 });
    await user.upload(screen.getByLabelText('CSV file'), big);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'huge.csv is too big: the largest file accepted is 10 MB.',
    );
    expect(screen.getByRole('button', { name: 'Preview' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(mock).not.toHaveBeenCalled();
  });

  it('works from the keyboard: Tab to Preview and Import, Enter on each', async () => {
    const { sent } = serveImport();
    const user = userEvent.setup();
    renderWithProviders(<ImportProductsPanel />, { preloadedState: adminState });
    await user.upload(screen.getByLabelText('CSV file'), csvFile('rows'));
    await tabTo(user, screen.getByRole('button', { name: 'Preview' }));
    await user.keyboard('{Enter}');
    const importButton = screen.getByRole('button', { name: 'Import' });
    await waitFor(() => expect(importButton).toBeEnabled());
    await tabTo(user, importButton);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Imported: 1 created, 1 updated, 0 unchanged.')).toBeInTheDocument();
    expect(sent.map((s) => s.dryRun)).toEqual(['true', 'false']);
  });
});
