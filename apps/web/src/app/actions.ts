import type { UnknownAction } from 'redux';

// Redux Toolkit's createAction and isAnyOf, as far as this app uses them, without importing the toolkit:
// its core is one module, and any import of it puts all of it (with immer and reselect, 9 kB gzipped) in
// the home page's first download (issue 10), where only the data layer's chunk needs it. The actions are
// the same objects RTK's make ({ type, payload } and meta or error when prepared), so RTK Query
// (extractRehydrationInfo) and redux-persist see no difference.

/** An action with a payload of type P (and meta M, error E when given), as RTK's `PayloadAction`. */
export type PayloadAction<P = void, T extends string = string, M = never, E = never> = {
  payload: P;
  type: T;
} & ([M] extends [never] ? unknown : { meta: M }) &
  ([E] extends [never] ? unknown : { error: E });

/** A prepare callback: makes the payload (and meta, error) from the action creator's arguments. */
export type PrepareAction = (...args: never) => { payload: unknown; meta?: unknown; error?: unknown };

/** What every action creator has beside being called: its type, and a type guard for its actions. */
interface ActionCreatorBase<A extends PayloadAction<unknown>> {
  readonly type: A['type'];
  /** Whether `action` is one of this creator's (a plain function: it may be passed on unbound). */
  match: (action: unknown) => action is A;
}

/** The arguments of a creator without prepare: none for void, an optional payload when it may be undefined. */
type PayloadArgs<P> = 0 extends 1 & P
  ? [payload?: P]
  : [P] extends [void]
    ? []
    : undefined extends P
      ? [payload?: P]
      : [payload: P];

/** `createAction<P>(type)`'s creator. */
export interface ActionCreatorWithPayload<P, T extends string = string> extends ActionCreatorBase<
  PayloadAction<P, T>
> {
  (...args: PayloadArgs<P>): PayloadAction<P, T>;
}

type Prepared<PA extends PrepareAction> = ReturnType<PA>;

/** The action a prepare callback's creator makes: meta and error only when prepare gives them. */
export type PreparedAction<PA extends PrepareAction, T extends string = string> = PayloadAction<
  Prepared<PA>['payload'],
  T,
  Prepared<PA> extends { meta: infer M } ? M : never,
  Prepared<PA> extends { error: infer E } ? E : never
>;

/** `createAction(type, prepare)`'s creator: it takes prepare's arguments. */
export interface ActionCreatorWithPreparedPayload<
  PA extends PrepareAction,
  T extends string = string,
> extends ActionCreatorBase<PreparedAction<PA, T>> {
  (...args: Parameters<PA>): PreparedAction<PA, T>;
}

/** Any action creator of this module: what isAnyOf takes. */
export type ActionMatcher = { match: (action: unknown) => action is UnknownAction };

/**
 * An action creator for `type`. Called, it makes `{ type, payload }` from its one argument; with
 * `prepare`, `{ type, payload }` and `meta` and `error` when prepare gives them, from prepare's
 * arguments. It has `type`, `match` (a type guard) and `toString()` (the type), as RTK's has.
 */
export function createAction<P = void, T extends string = string>(type: T): ActionCreatorWithPayload<P, T>;
export function createAction<PA extends PrepareAction, T extends string = string>(
  type: T,
  prepare: PA,
): ActionCreatorWithPreparedPayload<PA, T>;
export function createAction(type: string, prepare?: (...args: unknown[]) => ReturnType<PrepareAction>) {
  function actionCreator(...args: unknown[]) {
    if (!prepare) return { type, payload: args[0] };
    const prepared = prepare(...args);
    return {
      type,
      payload: prepared.payload,
      ...('meta' in prepared && { meta: prepared.meta }),
      ...('error' in prepared && { error: prepared.error }),
    };
  }
  return Object.assign(actionCreator, {
    type,
    toString: () => type,
    match: (action: unknown) =>
      typeof action === 'object' && action !== null && (action as { type?: unknown }).type === type,
  });
}

/** The actions a list of creators' `match` guards accept. */
type MatchedBy<M> = M extends { match: (action: unknown) => action is infer A } ? A : never;

/** A type guard for the actions of any of `creators` (RTK's `isAnyOf`, for action creators). */
export function isAnyOf<const M extends readonly ActionMatcher[]>(
  ...creators: M
): (action: unknown) => action is MatchedBy<M[number]> {
  return (action): action is MatchedBy<M[number]> => creators.some((creator) => creator.match(action));
}
