import { useId, useState, type FormEvent } from 'react';
import {
  MAX_IMPORT_BYTES,
  ProductsImportResult,
  type ProductImportChange,
  type ProductImportError,
} from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { useImportProductsMutation } from './api';

/** The preview table shows this many rows at most; the counts above it cover the whole file. */
export const PREVIEW_ROWS_SHOWN = 500;

/** What the last Preview or Import answered, and for which file. */
type Outcome =
  | { kind: 'preview'; file: File; result: ProductsImportResult }
  | { kind: 'imported'; result: ProductsImportResult }
  | { kind: 'refused'; dryRun: boolean; result: ProductsImportResult }
  | { kind: 'failed'; message: string };

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;

/** The file's own problem, found before uploading it. */
export function fileProblem(file: File): string | null {
  if (file.size > MAX_IMPORT_BYTES) {
    return `${file.name} is too big: the largest file accepted is ${megabytes(MAX_IMPORT_BYTES)}.`;
  }
  return null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function summary(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'preview': {
      const { created, updated, unchanged, errors } = outcome.result;
      return errors.length > 0
        ? `The preview found ${plural(errors.length, 'row error')}: fix the file and preview it again.`
        : `Preview: ${created} to create, ${updated} to update, ${unchanged} unchanged. Nothing is saved until you import.`;
    }
    case 'imported': {
      const { created, updated, unchanged } = outcome.result;
      return `Imported: ${created} created, ${updated} updated, ${unchanged} unchanged.`;
    }
    case 'refused':
      return `Nothing was ${outcome.dryRun ? 'previewed' : 'imported'}: ${plural(outcome.result.errors.length, 'row error')}.`;
    case 'failed':
      return '';
  }
}

const ACTION_LABEL: Record<ProductImportChange['action'], string> = {
  create: 'Create',
  update: 'Update',
  unchanged: 'Unchanged',
};

function ChangesTable({ changes }: { changes: readonly ProductImportChange[] }) {
  const shown = changes.slice(0, PREVIEW_ROWS_SHOWN);
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-zinc-300">
          {shown.length < changes.length
            ? `What would change: the first ${shown.length} of ${changes.length} rows`
            : 'What would change'}
        </caption>
        <thead className="text-zinc-400">
          <tr>
            {['Row', 'Action', 'Name', 'Changed fields'].map((heading) => (
              <th key={heading} scope="col" className="border-b-2 border-zinc-700 px-2 py-2">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((change) => (
            <tr key={change.row} className="border-b border-zinc-800 align-top">
              <td className="px-2 py-2">{change.row}</td>
              <td
                className={`px-2 py-2 ${
                  change.action === 'create'
                    ? 'text-lime-300'
                    : change.action === 'update'
                      ? 'text-amber-300'
                      : 'text-zinc-400'
                }`}
              >
                {ACTION_LABEL[change.action]}
              </td>
              <td className="px-2 py-2 break-words">{change.productName}</td>
              <td className="px-2 py-2 break-words">
                {change.action === 'create'
                  ? 'New product'
                  : change.fields.length > 0
                    ? change.fields.join(', ')
                    : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RowErrors({ errors }: { errors: readonly ProductImportError[] }) {
  return (
    <ul aria-label="Row errors" className="flex flex-col gap-1 text-red-500">
      {errors.map((error) => (
        <li key={`${error.row}:${error.message}`}>
          Row {error.row}: {error.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * Issue 15's product import: a CSV in the products export's columns. "Preview" asks the server what
 * the file would do (a dry run: nothing written) and lists it, row errors included; "Import" is offered
 * only after a clean preview of the very file chosen, and writes it. A file with any bad row is refused
 * whole (422), its rows named. A file over MAX_IMPORT_BYTES is refused here, before any upload.
 */
export function ImportProductsPanel() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [importProducts] = useImportProductsMutation();
  const needsPreviewId = useId();

  const cleanPreview =
    outcome?.kind === 'preview' && outcome.file === file && outcome.result.errors.length === 0;

  async function send(dryRun: boolean) {
    if (!file || problem) return;
    setBusy(dryRun ? 'preview' : 'import');
    setOutcome(null);
    try {
      const result = await importProducts({ file, dryRun }).unwrap();
      setOutcome(dryRun ? { kind: 'preview', file, result } : { kind: 'imported', result });
    } catch (error) {
      // 422: the same shape, with the rows' errors and nothing written.
      const refused = ProductsImportResult.safeParse((error as { data?: unknown }).data);
      setOutcome(
        refused.success && (error as { status?: unknown }).status === 422
          ? { kind: 'refused', dryRun, result: refused.data }
          : { kind: 'failed', message: errorMessage(error) },
      );
    } finally {
      setBusy(null);
    }
  }

  function onPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(true);
  }

  const result = outcome && outcome.kind !== 'failed' ? outcome.result : null;
  const said = outcome ? summary(outcome) : '';
  const good = outcome?.kind === 'imported' || (outcome?.kind === 'preview' && cleanPreview);

  return (
    <form
      noValidate
      aria-label="Import products"
      onSubmit={onPreview}
      className="flex flex-col gap-4 border-2 border-zinc-700 bg-zinc-950 p-4"
    >
      <p className="text-sm text-zinc-300">
        A CSV with the products export&apos;s columns. A row with an empty <code>_id</code> adds a product, a
        row with an <code>_id</code> updates that product. A file with any bad row changes nothing.
      </p>
      <LabelledField label="CSV file" hint={`At most ${megabytes(MAX_IMPORT_BYTES)}.`}>
        {({ id, describedBy }) => (
          <input
            id={id}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={describedBy}
            className="field w-full"
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setFile(chosen);
              setProblem(chosen ? fileProblem(chosen) : null);
              setOutcome(null);
            }}
          />
        )}
      </LabelledField>
      {problem && <ErrorLine message={problem} prefix="" />}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn btn-secondary" disabled={!file || !!problem || busy !== null}>
          {busy === 'preview' ? 'Previewing...' : 'Preview'}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!cleanPreview || busy !== null}
          aria-describedby={cleanPreview ? undefined : needsPreviewId}
          onClick={() => void send(false)}
        >
          {busy === 'import' ? 'Importing...' : 'Import'}
        </button>
      </div>
      {!cleanPreview && (
        <p id={needsPreviewId} className="text-xs text-zinc-400">
          Import opens after a preview of the chosen file without errors.
        </p>
      )}
      <p
        role="status"
        aria-live="polite"
        className={said ? `font-semibold ${good ? 'text-lime-300' : 'text-amber-300'}` : 'sr-only'}
      >
        {said}
      </p>
      {outcome?.kind === 'failed' && <ErrorLine message={outcome.message} />}
      {outcome?.kind === 'refused' && outcome.result.message && (
        <ErrorLine message={outcome.result.message} />
      )}
      {result && result.errors.length > 0 && <RowErrors errors={result.errors} />}
      {outcome?.kind === 'preview' && result && result.changes.length > 0 && (
        <ChangesTable changes={result.changes} />
      )}
    </form>
  );
}
