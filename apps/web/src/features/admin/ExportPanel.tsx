import { useState, type FormEvent } from 'react';
import { OrdersExportQuery } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { useExportCsvMutation, type CsvExport } from './api';
import { Field } from './fields';
import { saveFile } from '../../ui/saveFile';

/** One download: its button's busy state, the file it saved, and its own error line. */
function useDownload() {
  const [exportCsv, { isLoading, error }] = useExportCsvMutation();
  const [saved, setSaved] = useState<string | null>(null);
  async function download(what: CsvExport) {
    setSaved(null);
    try {
      const file = await exportCsv(what).unwrap();
      saveFile(file);
      setSaved(file.filename);
    } catch {
      // The error line says why.
    }
  }
  return { download, busy: isLoading, saved, error: error ? errorMessage(error) : null };
}

function Saved({ filename }: { filename: string | null }) {
  return (
    <p role="status" className={filename ? 'text-sm text-lime-300' : 'sr-only'}>
      {filename ? `Saved ${filename}` : ''}
    </p>
  );
}

/**
 * Issue 15's CSV exports: every order (or those placed between two days, both included) and every
 * product, for a spreadsheet or an accountant; issue 35: the trade-ins over the same days, a row per
 * item. The routes want the admin's token, so the file is fetched with it and saved from memory, not
 * opened as a link.
 */
export function ExportPanel() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [rangeError, setRangeError] = useState<string | null>(null);
  // The orders and the trade-ins share the dates, and one download (and its Saved line) at a time.
  const ranged = useDownload();
  const [exporting, setExporting] = useState<'orders' | 'tradeins'>('orders');
  const products = useDownload();

  function exportRange(kind: 'orders' | 'tradeins') {
    const range = OrdersExportQuery.safeParse({ from: from || undefined, to: to || undefined });
    if (!range.success) {
      setRangeError(range.error.issues[0]?.message ?? 'Check the dates');
      return;
    }
    setRangeError(null);
    setExporting(kind);
    void ranged.download({ kind, ...range.data });
  }

  function exportOrders(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    exportRange('orders');
  }
  const busy = (kind: 'orders' | 'tradeins') => ranged.busy && exporting === kind;

  return (
    <div className="flex flex-col gap-6">
      <form
        noValidate
        aria-label="Export orders and trade-ins"
        onSubmit={exportOrders}
        className="flex flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-4"
      >
        <p className="text-sm text-zinc-300">
          One row per order, or per item of a trade-in. Leave a date empty to start at the first or end at the
          last.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="From" type="date" value={from} onChange={setFrom} />
          <Field label="To" type="date" value={to} onChange={setTo} />
        </div>
        {rangeError && <ErrorLine message={rangeError} prefix="" />}
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn btn-primary" disabled={ranged.busy}>
            {busy('orders') ? 'Exporting orders...' : 'Export orders'}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={ranged.busy}
            onClick={() => exportRange('tradeins')}
          >
            {busy('tradeins') ? 'Exporting trade-ins...' : 'Export trade-ins'}
          </button>
        </div>
        <Saved filename={ranged.saved} />
        {ranged.error && <ErrorLine message={ranged.error} />}
      </form>
      <div className="flex flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-4">
        <p className="text-sm text-zinc-300">
          Every product, in the columns the import reads: edit it in a spreadsheet and import it back.
        </p>
        <button
          type="button"
          className="btn btn-primary self-start"
          disabled={products.busy}
          onClick={() => void products.download({ kind: 'products' })}
        >
          {products.busy ? 'Exporting products...' : 'Export products'}
        </button>
        <Saved filename={products.saved} />
        {products.error && <ErrorLine message={products.error} />}
      </div>
    </div>
  );
}
