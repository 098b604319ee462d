import { useEffect, useRef } from 'react';
import { PayPalButtons, PayPalScriptProvider } from '@paypal/react-paypal-js';

export interface PayPalButtonsBoxProps {
  clientId: string;
  /** Creates the PayPal order on our server for the remainder; answers PayPal's order id. */
  createOrder: () => Promise<string>;
  /** Captures on our server after the customer approved. */
  onApprove: (paypalOrderId: string) => Promise<void>;
  onError: () => void;
  /** The customer closed PayPal's window without paying. */
  onCancel?: () => void;
  disabled: boolean;
}

/**
 * PayPal's script and buttons, in their own chunk loaded only when checkout runs with real PayPal
 * credentials (issue 3). The buttons keep the callbacks they were created with, so these delegate to
 * the latest props.
 */
export default function PayPalButtonsBox(props: PayPalButtonsBoxProps) {
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  return (
    <PayPalScriptProvider options={{ clientId: props.clientId, currency: 'USD', intent: 'capture' }}>
      <PayPalButtons
        style={{ layout: 'vertical', shape: 'rect' }}
        disabled={props.disabled}
        createOrder={() => latest.current.createOrder()}
        onApprove={(data) => latest.current.onApprove(data.orderID)}
        onError={() => latest.current.onError()}
        onCancel={() => latest.current.onCancel?.()}
      />
    </PayPalScriptProvider>
  );
}
