import { Suspense, lazy, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ListState, SuggestionKeys } from './SearchSuggestions';
import { PixelIcon } from '../../ui/PixelIcon';

/** The pause in typing after which the box asks for suggestions. */
export const SUGGEST_DELAY_MS = 200;

/**
 * The shared SUGGEST_MIN_CHARS (the server answers [] below it), repeated: its module builds zod
 * schemas when loaded, and importing one constant from it put zod in the first download (+26 kB).
 */
const MIN_CHARS = 2;

/**
 * The list, its keys and the data layer behind them: not in the first download (the header is on
 * every page), fetched as soon as the shopper reaches for the box.
 */
const loadSuggestions = () => import('./SearchSuggestions');
const SearchSuggestions = lazy(loadSuggestions);

const CLOSED: ListState = { expanded: false };

/**
 * The header's search (issue 33): a WAI-ARIA 1.2 combobox with a listbox of suggestions
 * (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/, "list autocomplete"). Down and Up move through
 * the suggestions (SearchSuggestions), Enter opens the one chosen or, with none, the search page for the
 * text; Escape closes the list, and a second one empties the box. A real GET form to /search: before
 * the app starts, Enter still searches. Below 1024 px (phones, and tablets, where the categories take
 * the header's room) an icon button opens the box over the header; from there on it is in the header.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [list, setList] = useState(CLOSED);
  const [wanted, setWanted] = useState(false);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const keysRef = useRef<SuggestionKeys>(null);
  const id = useId();

  // The phone's box closed by its button or Escape gives the focus back to the search button.
  const refocus = useRef(false);
  const closePhone = () => {
    setOpen(false);
    setPhoneOpen(false);
    refocus.current = true;
  };

  // A followed suggestion or search is another page: the list and the phone's box close.
  const [shownAt, setShownAt] = useState(pathname + search);
  if (shownAt !== pathname + search) {
    setShownAt(pathname + search);
    setOpen(false);
    setPhoneOpen(false);
  }

  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  useEffect(() => {
    if (phoneOpen) inputRef.current?.focus();
    else if (refocus.current) toggleRef.current?.focus();
    refocus.current = false;
  }, [phoneOpen]);

  function want() {
    void loadSuggestions();
    setWanted(true);
  }

  return (
    <div ref={rootRef} className="flex items-center">
      <button
        ref={toggleRef}
        type="button"
        // Under the open box it is hidden, not left to be tabbed to behind it.
        className={`icon-btn lg:hidden ${phoneOpen ? 'invisible' : ''}`}
        aria-label="Search the shop"
        aria-expanded={phoneOpen}
        aria-controls={`${id}form`}
        onClick={() => {
          want();
          setPhoneOpen(true);
        }}
      >
        <PixelIcon d="M4 1h5v1H4zM2 2h2v1H2zM9 2h2v1H9zM1 3h1v5H1zM11 3h1v5h-1zM2 8h2v1H2zM9 8h2v1H9zM4 9h5v1H4zM10 10h2v2h-2zM12 12h2v2h-2zM14 14h1v1h-1z" />
      </button>
      <form
        id={`${id}form`}
        role="search"
        aria-label="Shop"
        action="/search"
        method="get"
        className={`${
          phoneOpen ? 'absolute inset-0 z-10 flex gap-2 bg-zinc-950 px-3 sm:px-4' : 'hidden'
        } items-center lg:relative lg:inset-auto lg:flex lg:bg-transparent lg:px-0`}
        onSubmit={(event) => {
          event.preventDefault();
          const q = text.trim();
          if (!q) return;
          setOpen(false);
          navigate(`/search?${new URLSearchParams({ q })}`);
        }}
      >
        <label htmlFor={`${id}input`} className="sr-only">
          Search the shop
        </label>
        <input
          ref={inputRef}
          id={`${id}input`}
          name="q"
          type="text"
          role="combobox"
          aria-expanded={list.expanded}
          aria-controls={`${id}list`}
          aria-autocomplete="list"
          aria-activedescendant={list.active}
          value={text}
          placeholder="Search the shop"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          className="field min-w-0 flex-1 py-1.5 lg:w-48 lg:flex-none xl:w-64"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            if (!wanted) want();
          }}
          onFocus={want}
          onKeyDown={(event) => {
            // The list's keys (SearchSuggestions, loaded on focus): arrows, Enter, Escape. An Escape the
            // box took is not also another's (the header's phone menu closes on one).
            if (keysRef.current?.(event) && event.key === 'Escape') event.stopPropagation();
          }}
        />
        <button type="button" className="icon-btn lg:hidden" aria-label="Close search" onClick={closePhone}>
          <PixelIcon d="M3 3h2v2H3zM5 5h2v2H5zM7 7h2v2H7zM9 5h2v2H9zM11 3h2v2h-2zM5 9h2v2H5zM3 11h2v2H3zM9 9h2v2H9zM11 11h2v2h-2z" />
        </button>
        {wanted && (
          <Suspense fallback={null}>
            <SearchSuggestions
              keys={keysRef}
              q={query}
              text={text}
              open={open && query.length >= MIN_CHARS && text.trim().length >= MIN_CHARS}
              id={id}
              onOpen={setOpen}
              onList={setList}
              onEmpty={() => setText('')}
              root={rootRef}
              phone={phoneOpen}
              onClosePhone={closePhone}
            />
          </Suspense>
        )}
      </form>
    </div>
  );
}
