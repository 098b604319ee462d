import { useId } from 'react';
import { ExportPanel } from './ExportPanel';
import { ImportProductsPanel } from './ImportProductsPanel';

/**
 * Import & Export (issue 15): orders and products out as CSV, products in from a CSV of the same
 * columns (export, edit in a spreadsheet, import back).
 */
export function ImportExportSection() {
  const exportId = useId();
  const importId = useId();
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby={exportId} className="flex flex-col gap-3">
        <h3 id={exportId} className="pixel-heading text-sm text-lime-300">
          Export
        </h3>
        <ExportPanel />
      </section>
      <section aria-labelledby={importId} className="flex flex-col gap-3">
        <h3 id={importId} className="pixel-heading text-sm text-lime-300">
          Import products
        </h3>
        <ImportProductsPanel />
      </section>
    </div>
  );
}
