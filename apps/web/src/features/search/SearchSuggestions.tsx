import {
  useEffect,
  useImperativeHandle,
  useState,
  type KeyboardEvent,
  type Ref,
  type RefObject,
} from 'react';
import { useNavigate } from 'react-router';
import { formatDollars, type ProductSuggestion } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useDismiss } from '../../app/layout/useDismiss';
import { imageSrcSet } from '../../ui/productImage';
import { useSearchSuggestionsQuery } from './api';

/** How long a search may take before "Loading suggestions" is said: a quick answer is said alone. */
export const SLOW_ANSWER_MS = 600;

/** The box's keys, handled by the list: true when the key was its own (the box then does nothing). */
export type SuggestionKeys = (event: KeyboardEvent<HTMLInputElement>) => boolean;

/** What the box's input says of the list: whether it is shown, and the id of the option chosen. */
export interface ListState {
  expanded: boolean;
  active?: string | undefined;
}

const NONE: ProductSuggestion[] = [];

export interface SearchSuggestionsProps {
  /** Set to the list's key handler, which the box calls first. */
  keys: Ref<SuggestionKeys>;
  /** The text asked about (trimmed, debounced). */
  q: string;
  /** The box's text as typed: a change puts the arrow keys back in the box. */
  text: string;
  /** Whether the popup is shown (the box has 2 characters or more and the shopper typed them). */
  open: boolean;
  /** The box's id: the list's and the options' ids start with it. */
  id: string;
  onOpen: (open: boolean) => void;
  onList: (list: ListState) => void;
  /** Empties the box: a suggestion was opened, or Escape pressed with the list closed. */
  onEmpty: () => void;
  /** The box and its form: a press outside closes the list, and the phone's box with it. */
  root: RefObject<HTMLElement | null>;
  /** Whether the phone's box is open over the header. */
  phone: boolean;
  /** Closes the phone's box (the focus goes back to its button). */
  onClosePhone: () => void;
}

/**
 * The search box's list (issue 33): the suggestions, each with its image, name, platform and price, or
 * what there is to say instead; the keys that move through them (Down and Up, wrapping) and open one
 * (Enter); a polite status for screen readers. A chunk of its own, with the data layer: the header is
 * in every page's first download, this comes when the box is used.
 */
export default function SearchSuggestions({
  keys,
  q,
  text,
  open,
  id,
  onOpen,
  onList,
  onEmpty,
  root,
  phone,
  onClosePhone,
}: SearchSuggestionsProps) {
  const navigate = useNavigate();
  // A closed list asks nothing (a text typed and sent at once, a list closed while its answer was due).
  const { data, error, isFetching } = useSearchSuggestionsQuery(q, { skip: !open });
  // While the next answer comes, the last one stays on screen (no flicker between two letters).
  const items = (open && data) || NONE;
  const waiting = open && isFetching;
  // The option the arrow keys are on, in these items: a new answer, or a letter typed, starts again
  // from the box (APG: typing moves the visual focus back to it).
  const [choice, setChoice] = useState({ items, text, index: -1 });
  const active = open && choice.items === items && choice.text === text ? choice.index : -1;
  const expanded = open && items.length > 0;
  const optionId = (index: number) => `${id}option${index}`;
  const activeId = active >= 0 ? optionId(active) : undefined;
  const [slow, setSlow] = useState(false);

  function pick(item: ProductSuggestion) {
    onOpen(false);
    onEmpty();
    navigate(`/shop/${item.productCategory}/product/${item._id}`);
  }

  useImperativeHandle(keys, () => (event) => {
    const { key } = event;
    const count = items.length;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      event.preventDefault();
      if (!open) onOpen(true);
      else if (count > 0) {
        const index = key === 'ArrowDown' ? (active + 1) % count : active <= 0 ? count - 1 : active - 1;
        setChoice({ items, text, index });
      }
      return true;
    }
    const item = expanded ? items[active] : undefined;
    // Enter without a chosen suggestion is left to the form: the search page.
    if (key === 'Enter' && item) {
      event.preventDefault();
      pick(item);
      return true;
    }
    if (key === 'Escape' && open) {
      event.preventDefault();
      onOpen(false);
      setChoice({ items, text, index: -1 });
      return true;
    }
    if (key === 'Tab') onOpen(false);
    // An Escape the list did not take empties the box, then closes the phone's.
    if (key === 'Escape' && (text || phone)) {
      if (text) onEmpty();
      else onClosePhone();
      return true;
    }
    return false;
  });

  // Escape is the box's own (above); a press outside closes the list, and the phone's box with it.
  useDismiss(root, open || phone, (reason) => {
    if (reason === 'escape') return;
    onOpen(false);
    if (phone) onClosePhone();
  });

  useEffect(() => onList({ expanded, active: activeId }), [expanded, activeId, onList]);

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setSlow(true), SLOW_ANSWER_MS);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [waiting, q]);

  const message = error
    ? `Error: ${errorMessage(error)}`
    : !data || (waiting && items.length === 0)
      ? 'Loading suggestions…'
      : items.length === 0
        ? 'No products match'
        : undefined;
  // Said once an answer is in, not at each letter; "Loading" only when it takes a while.
  const status = !open
    ? ''
    : error || !waiting
      ? (message ?? `${items.length} ${items.length === 1 ? 'suggestion' : 'suggestions'}`)
      : slow
        ? 'Loading suggestions…'
        : '';

  return (
    <>
      <p role="status" className="sr-only">
        {status}
      </p>
      {open && (
        <div
          // A press in the popup keeps the focus in the box (the tap's click then opens the option).
          // Under the box: the width of a phone; under the input (opened over the header, or in it) beyond.
          onMouseDown={(event) => event.preventDefault()}
          className="absolute top-full right-0 left-0 z-50 mt-1 max-h-[min(30rem,75vh)] overflow-y-auto border-4 border-lime-400 bg-zinc-950 shadow-[4px_4px_0_var(--color-fuchsia-500)] sm:right-auto sm:left-4 sm:w-96 lg:right-0 lg:left-auto"
        >
          {message ? (
            <p className="px-3 py-3 text-sm text-zinc-300">{message}</p>
          ) : (
            <ul
              id={`${id}list`}
              role="listbox"
              aria-label="Suggestions"
              aria-busy={waiting}
              className={waiting ? 'opacity-70' : undefined}
            >
              {items.map((item, index) => (
                <li
                  key={item._id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  onClick={() => pick(item)}
                  className={`flex cursor-pointer items-center gap-3 border-l-4 px-2 py-2 ${
                    index === active
                      ? 'border-lime-400 bg-zinc-800 text-lime-200'
                      : 'border-transparent text-zinc-100 hover:bg-zinc-900'
                  }`}
                >
                  {item.image ? (
                    <img
                      src={item.image}
                      srcSet={imageSrcSet(item.image)}
                      sizes="40px"
                      alt=""
                      width={40}
                      height={40}
                      decoding="async"
                      className="h-10 w-10 shrink-0 bg-zinc-900 object-contain"
                    />
                  ) : (
                    <span aria-hidden="true" className="no-image h-10 w-10 shrink-0" />
                  )}
                  {/* The spaces keep the words apart in the option's name: "Metroid NES $24.50". */}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-semibold">{item.productName}</span>
                    {item.platform && (
                      <>
                        {' '}
                        <span className="block truncate text-xs text-zinc-400">{item.platform}</span>
                      </>
                    )}
                  </span>{' '}
                  <span className="shrink-0 text-sm font-semibold text-lime-300">
                    {formatDollars(item.price)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}
