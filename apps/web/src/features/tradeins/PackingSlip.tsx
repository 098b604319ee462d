import { useId } from 'react';
import { nameWithVariant, type TradeIn } from '@pixel-vault/shared';
import { useAppSelector } from '../../app/hooks';
import { optionsText, tradeInRef } from './tradeInWords';

export const PACKING_SLIP_ID = 'packing-slip';

/**
 * Printing the trade-in page prints the slip alone, black on white: the header, the footer and the rest
 * of the page are left out. Written here rather than in the app's stylesheet, which every page downloads
 * first; it applies while this page is shown.
 */
const PRINT_CSS = `@media print {
  html, body { background: #fff !important; color: #000 !important; }
  header, footer, .skip-link, [data-print="hide"] { display: none !important; }
  #${PACKING_SLIP_ID} { border: 0 !important; padding: 0 !important; color: #000 !important; }
  #${PACKING_SLIP_ID} * { color: #000 !important; border-color: #000 !important; }
  #${PACKING_SLIP_ID} [data-print="hide"] { display: none !important; }
}`;

/**
 * The packing slip (issue 35) for a trade-in still to arrive: the trade-in's id in large type, who sends
 * it, what is in the box and where it goes (the shop's address, `shopAddress`). A print button; printing
 * the page prints only the slip.
 */
export function PackingSlip({ tradeIn, shopAddress }: { tradeIn: TradeIn; shopAddress: readonly string[] }) {
  const headingId = useId();
  const customer = useAppSelector((state) => state.auth.userInfo);
  const sender = tradeIn.user ?? customer;

  return (
    <section
      id={PACKING_SLIP_ID}
      aria-labelledby={headingId}
      className="flex flex-col gap-4 border-4 border-dashed border-zinc-600 p-4 sm:p-6"
    >
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={headingId} className="pixel-heading text-sm text-cyan-300">
          Packing slip
        </h2>
        <button type="button" className="btn btn-secondary" data-print="hide" onClick={() => window.print()}>
          Print packing slip
        </button>
      </div>
      <p className="text-zinc-300" data-print="hide">
        Print it and put it in the box, so that we know whose games they are.
      </p>
      <div className="flex flex-col gap-1">
        <p className="text-sm tracking-wide text-zinc-400 uppercase">Pixel Vault trade-in</p>
        <p className="font-mono text-4xl font-bold text-zinc-50 sm:text-5xl print:text-7xl">
          {tradeInRef(tradeIn)}
        </p>
        <p className="text-sm text-zinc-300">
          Full number: <span className="font-mono break-all">{tradeIn._id}</span>
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {sender && (
          <div>
            <h3 className="text-sm font-semibold tracking-wide text-zinc-400 uppercase">From</h3>
            <p className="break-words text-zinc-100">{sender.name}</p>
            <p className="break-all text-zinc-300">{sender.email}</p>
          </div>
        )}
        {shopAddress.length > 0 && (
          <div>
            <h3 className="text-sm font-semibold tracking-wide text-zinc-400 uppercase">Send to</h3>
            <address className="text-zinc-100 not-italic">
              {shopAddress.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
          </div>
        )}
      </div>
      <div>
        <h3 className="text-sm font-semibold tracking-wide text-zinc-400 uppercase">In the box</h3>
        <ul aria-label="In the box" className="flex flex-col">
          {tradeIn.items.map((item) => (
            <li key={item._id} className="flex gap-3 border-b border-zinc-800 py-1 last:border-b-0">
              <span className="w-10 shrink-0 text-right font-semibold tabular-nums">{item.qty} ×</span>
              <span className="min-w-0 break-words">
                {nameWithVariant(item.productName, optionsText(item.options))}
                <span className="ml-2 font-mono text-xs text-zinc-400">{item.sku}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
