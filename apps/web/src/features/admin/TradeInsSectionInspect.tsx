import { useId, useRef, useState, type FormEvent } from 'react';
import {
  INSPECTION_OUTCOMES,
  InspectItemInput,
  MAX_INSPECTION_REASON_LENGTH,
  formatCents,
  formatDollars,
  toCents,
  type InspectItemInput as InspectItem,
  type InspectionOutcome,
  type TradeIn,
  type TradeInItem,
} from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { useInspectTradeInMutation } from './tradeinsApi';
import { itemLabel } from './TradeInsSectionParts';

/** What the admin has chosen for one line, as typed. */
export interface InspectionDraft {
  outcome: InspectionOutcome | null;
  credit: string;
  reason: string;
}
export type InspectionDrafts = Record<string, InspectionDraft>;
type Field = 'outcome' | 'credit' | 'reason';
export type InspectionProblems = Record<string, Partial<Record<Field, string>>>;

const EMPTY: InspectionDraft = { outcome: null, credit: '', reason: '' };

function inputOf(id: string, draft: InspectionDraft): unknown {
  return {
    _id: id,
    outcome: draft.outcome,
    ...(draft.outcome === 'lowered' ? { credit: draft.credit } : {}),
    ...(draft.outcome && draft.outcome !== 'accepted' ? { reason: draft.reason } : {}),
  };
}

/**
 * What is wrong with the inspection, line by line (none: an empty record). The server's rules, said here
 * first: every line has an outcome; a lowered one a credit (0 or more, whole cents) below its quote, and a
 * reason; a rejected one a reason; a reason is at most MAX_INSPECTION_REASON_LENGTH characters.
 */
export function inspectionProblems(
  items: readonly TradeInItem[],
  drafts: InspectionDrafts,
): InspectionProblems {
  const problems: InspectionProblems = {};
  for (const item of items) {
    const draft = drafts[item._id] ?? EMPTY;
    const found: Partial<Record<Field, string>> = {};
    if (!draft.outcome) {
      found.outcome = `Choose accepted, lowered or rejected for ${itemLabel(item)}`;
    } else {
      const parsed = InspectItemInput.safeParse(inputOf(item._id, draft));
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const field: Field =
          issue.path[0] === 'credit' || issue.path[0] === 'reason' ? issue.path[0] : 'outcome';
        found[field] ??= issue.message;
      }
      // Below the quote: the server's rule that the shared schema cannot know (it has no quote).
      const credit = Number(draft.credit);
      if (
        draft.outcome === 'lowered' &&
        !found.credit &&
        Number.isFinite(credit) &&
        toCents(credit) >= toCents(item.offeredCredit)
      ) {
        found.credit = `The lowered credit must be below the quote (${formatDollars(item.offeredCredit)})`;
      }
    }
    if (Object.keys(found).length > 0) problems[item._id] = found;
  }
  return problems;
}

/** The body to send, once `inspectionProblems` found nothing. */
export function inspectionBody(items: readonly TradeInItem[], drafts: InspectionDrafts): InspectItem[] {
  return items.map((item) => InspectItemInput.parse(inputOf(item._id, drafts[item._id] ?? EMPTY)));
}

/** The inspected total so far, in cents, and how many lines are still undecided. */
export function inspectedCents(items: readonly TradeInItem[], drafts: InspectionDrafts) {
  let cents = 0;
  let undecided = 0;
  for (const item of items) {
    const draft = drafts[item._id] ?? EMPTY;
    if (draft.outcome === 'accepted') cents += toCents(item.offeredCredit) * item.qty;
    else if (draft.outcome === 'lowered') {
      const credit = Number(draft.credit);
      if (draft.credit.trim() !== '' && Number.isFinite(credit) && credit >= 0)
        cents += toCents(credit) * item.qty;
    } else if (!draft.outcome) undecided += 1;
  }
  return { cents, undecided };
}

const OUTCOME_TEXT: Record<InspectionOutcome, (item: TradeInItem) => string> = {
  accepted: (item) => `Accept at the quote (${formatDollars(item.offeredCredit)} each)`,
  lowered: () => 'Lower the credit',
  rejected: () => 'Reject (send it back)',
};

function fieldId(base: string, itemId: string, field: Field) {
  return `${base}-${itemId}-${field}`;
}

function InspectLine({
  base,
  item,
  draft,
  problems,
  onChange,
}: {
  base: string;
  item: TradeInItem;
  draft: InspectionDraft;
  problems: Partial<Record<Field, string>> | undefined;
  onChange: (draft: InspectionDraft) => void;
}) {
  const errorId = (field: Field) => fieldId(base, item._id, field) + '-error';
  return (
    <fieldset
      className="flex flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-3"
      aria-describedby={problems?.outcome ? errorId('outcome') : undefined}
    >
      <legend className="px-1 font-semibold break-words text-zinc-100">
        {itemLabel(item)} × {item.qty}, quoted {formatDollars(item.offeredCredit)} each
      </legend>
      <div className="flex flex-col gap-1 sm:flex-row sm:flex-wrap sm:gap-x-5">
        {INSPECTION_OUTCOMES.map((outcome, index) => (
          <label key={outcome} className="flex min-h-11 items-center gap-2 text-zinc-100">
            <input
              type="radio"
              // The first radio carries the id an error summary links to.
              id={index === 0 ? fieldId(base, item._id, 'outcome') : undefined}
              name={`${base}-${item._id}-outcome`}
              value={outcome}
              checked={draft.outcome === outcome}
              aria-invalid={problems?.outcome ? true : undefined}
              onChange={() => onChange({ ...draft, outcome })}
              className="h-5 w-5 accent-lime-400"
            />
            {OUTCOME_TEXT[outcome](item)}
          </label>
        ))}
      </div>
      {problems?.outcome && (
        <p id={errorId('outcome')} className="text-sm text-red-400">
          {problems.outcome}
        </p>
      )}
      {draft.outcome === 'lowered' && (
        <div className="flex flex-col gap-1">
          <label
            htmlFor={fieldId(base, item._id, 'credit')}
            className="text-sm font-semibold tracking-wide text-cyan-300 uppercase"
          >
            Lowered credit per unit ($)
          </label>
          <input
            id={fieldId(base, item._id, 'credit')}
            inputMode="decimal"
            autoComplete="off"
            value={draft.credit}
            aria-invalid={problems?.credit ? true : undefined}
            aria-describedby={problems?.credit ? errorId('credit') : undefined}
            onChange={(event) => onChange({ ...draft, credit: event.target.value })}
            className="field w-full sm:w-40"
          />
          {problems?.credit && (
            <p id={errorId('credit')} className="text-sm text-red-400">
              {problems.credit}
            </p>
          )}
        </div>
      )}
      {(draft.outcome === 'lowered' || draft.outcome === 'rejected') && (
        <div className="flex flex-col gap-1">
          <label
            htmlFor={fieldId(base, item._id, 'reason')}
            className="text-sm font-semibold tracking-wide text-cyan-300 uppercase"
          >
            Reason (the customer reads it)
          </label>
          <textarea
            id={fieldId(base, item._id, 'reason')}
            rows={2}
            maxLength={MAX_INSPECTION_REASON_LENGTH}
            value={draft.reason}
            aria-invalid={problems?.reason ? true : undefined}
            aria-describedby={problems?.reason ? errorId('reason') : undefined}
            onChange={(event) => onChange({ ...draft, reason: event.target.value })}
            className="field w-full"
          />
          {problems?.reason && (
            <p id={errorId('reason')} className="text-sm text-red-400">
              {problems.reason}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}

/**
 * Inspect a received trade-in (issue 35), item by item: accepted at its quote, lowered (a credit per unit
 * below the quote, and why) or rejected (why). The totals follow the choices. Checked here as the server
 * checks it; a refused form lists its problems (linked to their fields) and takes the focus there.
 * `onDone` says what the inspection did.
 */
export function TradeInInspectForm({
  tradeIn,
  onDone,
}: {
  tradeIn: TradeIn;
  onDone: (message: string) => void;
}) {
  const base = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const headingId = `${base}-heading`;
  const [drafts, setDrafts] = useState<InspectionDrafts>({});
  const [problems, setProblems] = useState<InspectionProblems>({});
  const [inspect, { isLoading, error, reset }] = useInspectTradeInMutation();
  const summaryRef = useRef<HTMLDivElement>(null);

  const { cents, undecided } = inspectedCents(tradeIn.items, drafts);
  const listed = Object.entries(problems).flatMap(([itemId, fields]) =>
    (Object.entries(fields) as [Field, string][]).map(([field, message]) => ({
      id: fieldId(base, itemId, field),
      message,
    })),
  );

  function change(item: TradeInItem, draft: InspectionDraft) {
    setDrafts((current) => ({ ...current, [item._id]: draft }));
    // A field's message goes once it is fixed (or says what is wrong now); new ones wait for a submit.
    if (!problems[item._id]) return;
    const now = inspectionProblems([item], { [item._id]: draft })[item._id] ?? {};
    setProblems((current) => {
      const next = { ...current };
      const kept = Object.fromEntries(
        (Object.keys(current[item._id] ?? {}) as Field[]).filter((f) => now[f]).map((f) => [f, now[f]]),
      );
      if (Object.keys(kept).length > 0) next[item._id] = kept;
      else delete next[item._id];
      return next;
    });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    reset();
    const found = inspectionProblems(tradeIn.items, drafts);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setTimeout(() => summaryRef.current?.focus(), 0);
      return;
    }
    try {
      const inspected = await inspect({
        id: tradeIn._id,
        body: { items: inspectionBody(tradeIn.items, drafts) },
      }).unwrap();
      onDone(
        inspected.status === 'accepted'
          ? `Inspection saved: every item at its quote, ${formatDollars(inspected.creditedAmount)} credited to the customer.`
          : `Inspection saved: ${formatDollars(inspected.inspectedCredit ?? 0)} offered; the customer accepts or declines.`,
      );
    } catch {
      setTimeout(() => summaryRef.current?.focus(), 0);
    }
  }

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-4"
    >
      <h4 id={headingId} className="pixel-heading text-sm text-cyan-300">
        Inspection
      </h4>
      <p className="text-sm text-zinc-300">
        For every item: accept it at its quote, lower its credit (say why), or reject it (say why; it goes
        back to the customer).
      </p>
      <div ref={summaryRef} tabIndex={-1} className="outline-none">
        {listed.length > 0 && (
          <div role="alert" className="border-2 border-red-500 p-3">
            <p className="font-semibold text-red-400">
              {listed.length === 1 ? 'One thing to fix:' : `${listed.length} things to fix:`}
            </p>
            <ul className="list-disc pl-6">
              {listed.map((problem) => (
                <li key={problem.id}>
                  <a href={`#${problem.id}`} className="text-red-300 underline underline-offset-4">
                    {problem.message}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        {error && <ErrorLine message={errorMessage(error)} />}
      </div>
      {tradeIn.items.map((item) => (
        <InspectLine
          key={item._id}
          base={base}
          item={item}
          draft={drafts[item._id] ?? EMPTY}
          problems={problems[item._id]}
          onChange={(draft) => change(item, draft)}
        />
      ))}
      <dl className="flex flex-col gap-1">
        <div className="flex justify-between gap-4">
          <dt className="text-zinc-300">Quoted</dt>
          <dd className="font-semibold tabular-nums">{formatDollars(tradeIn.totalCredit)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-zinc-300">Inspected</dt>
          <dd className="font-semibold text-lime-300 tabular-nums">
            {formatCents(cents)}
            {undecided > 0 && (
              <span className="ml-2 text-sm font-normal text-zinc-400">
                ({undecided} {undecided === 1 ? 'item' : 'items'} to decide)
              </span>
            )}
          </dd>
        </div>
      </dl>
      <button type="submit" className="btn btn-primary self-start" disabled={isLoading}>
        {isLoading ? 'Saving…' : 'Save inspection'}
      </button>
    </form>
  );
}
