import { lazy, Suspense } from 'react';
import { formatCents, type Cents } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useGetPayPalConfigQuery } from '../../app/ordersApi';

// PayPal's SDK wrapper is a further chunk, fetched only when the shop runs with PayPal credentials.
const PayPalButtonsBox = lazy(() => import('./PayPalButtonsBox'));

export const DEMO_BUTTON_LABEL = 'Demo payment — no money moves';

export interface PayPalBoxProps {
  remainderCents: Cents;
  createOrder: () => Promise<string>;
  onApprove: (paypalOrderId: string) => Promise<void>;
  onPayPalError: () => void;
  /** The customer closed PayPal's window without paying. */
  onPayPalCancel?: () => void;
  /** Runs create + capture for the demo provider. */
  onDemoPay: () => void;
  busy: boolean;
  disabled: boolean;
}

/**
 * Pays the remainder (spec section 4): PayPal's buttons with the client id from the server, or, when
 * the server has no PayPal credentials (demo mode), one clearly labelled button that runs the same
 * two server calls against the built-in demo provider.
 */
export function PayPalBox(props: PayPalBoxProps) {
  const { data: config, error, isLoading } = useGetPayPalConfigQuery();

  return (
    <section aria-label="Pay with PayPal" className="flex flex-col gap-3 border-4 border-zinc-800 p-4">
      <p className="text-zinc-200">
        Amount to pay with PayPal:{' '}
        <strong className="text-lime-300 tabular-nums">{formatCents(props.remainderCents)}</strong>
      </p>
      {isLoading ? (
        <Spinner label="Loading payment options" />
      ) : error || !config ? (
        <ErrorLine message={error ? errorMessage(error) : 'Payment options are unavailable.'} />
      ) : config.mode === 'demo' ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-zinc-400">
            This shop runs without PayPal credentials, so payments go to a built-in demo provider.
          </p>
          <button
            type="button"
            className="btn btn-primary self-start"
            onClick={props.onDemoPay}
            disabled={props.busy || props.disabled}
            aria-busy={props.busy}
          >
            {DEMO_BUTTON_LABEL}
          </button>
          {props.busy && <Spinner label="Paying" />}
        </div>
      ) : (
        <Suspense fallback={<Spinner label="Loading PayPal" />}>
          <PayPalButtonsBox
            clientId={config.clientId}
            createOrder={props.createOrder}
            onApprove={props.onApprove}
            onError={props.onPayPalError}
            {...(props.onPayPalCancel ? { onCancel: props.onPayPalCancel } : {})}
            disabled={props.disabled}
          />
        </Suspense>
      )}
    </section>
  );
}
