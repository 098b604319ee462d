import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import {
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@pixel-vault/shared';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { sendOrRefusal } from './submit';
import { DELIVERY_STATUS_LABELS, endpointName, momentText } from './webhook-form';
import {
  useDeleteWebhookMutation,
  useRevealWebhookSecretMutation,
  useSendWebhookTestMutation,
  useUpdateWebhookMutation,
} from './webhooksApi';
import { WebhooksSectionDeliveries } from './WebhooksSectionDeliveries';
import type { SecretReason } from './WebhooksSectionSecret';

export type Outcome = { kind: 'success' | 'error'; message: string };

export const confirmDeleteText = (name: string) => `Delete ${name}?`;
export const confirmRotateText = (name: string) => `Rotate the secret of ${name}?`;

/** What "Send test event" answered, in words: queued for the worker, or already through. */
export function testEventText(delivery: WebhookDelivery): string {
  if (delivery.status === 'succeeded')
    return `Test event delivered${delivery.responseStatus !== null ? ` (HTTP ${delivery.responseStatus})` : ''}.`;
  if (delivery.status === 'failed') return `Test event failed: ${delivery.lastError ?? 'no answer'}.`;
  return `Test event sent: ${DELIVERY_STATUS_LABELS.pending.toLowerCase()}. Its outcome shows in the delivery log.`;
}

/**
 * One webhook endpoint in the admin's list (issue 37): where it sends, what it subscribes to, whether
 * it is on (and why not), since when it fails, what waits, which secret; and every move on it. The
 * delivery log opens under it; "Send test event" opens it too, so the admin sees the test go through.
 */
export function WebhooksSectionItem({
  endpoint,
  focused,
  onFocused,
  onEdit,
  onSecret,
  onOutcome,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  /** Take the focus once (the endpoint just added). */
  focused: boolean;
  onFocused: () => void;
  onEdit: () => void;
  onSecret: (reason: SecretReason, endpoint: WebhookEndpointWithSecret) => void;
  onOutcome: (outcome: Outcome) => void;
  onDeleted: (name: string) => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  const [test, setTest] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const [update, { isLoading: updating }] = useUpdateWebhookMutation();
  const [remove, { isLoading: deleting }] = useDeleteWebhookMutation();
  const [reveal, { isLoading: revealing }] = useRevealWebhookSecretMutation();
  const [sendTest, { isLoading: testing }] = useSendWebhookTestMutation();
  const logId = useId();
  const name = endpointName(endpoint);

  useEffect(() => {
    if (!focused) return;
    headingRef.current?.focus();
    onFocused();
  }, [focused, onFocused]);

  async function onToggle() {
    if (updating) return;
    const enabled = !endpoint.enabled;
    const refused = await sendOrRefusal(() => update({ id: endpoint._id, body: { enabled } }).unwrap());
    onOutcome(
      refused
        ? { kind: 'error', message: refused.message }
        : { kind: 'success', message: `${name} turned ${enabled ? 'on' : 'off'}` },
    );
  }

  async function onRotate() {
    let rotated: WebhookEndpointWithSecret | undefined;
    const refused = await sendOrRefusal(async () => {
      const answer = await update({ id: endpoint._id, body: { rotateSecret: true } }).unwrap();
      if ('secret' in answer) rotated = answer;
    });
    setConfirming(null);
    if (refused) return onOutcome({ kind: 'error', message: refused.message });
    if (rotated) onSecret('rotated', rotated);
  }

  // The buttons below are never disabled while their call runs (the focus would drop to the page,
  // and a dialog opened after would give it back there): a second click waits instead.
  async function onReveal() {
    if (revealing) return;
    let answer: WebhookEndpointWithSecret | undefined;
    const refused = await sendOrRefusal(async () => {
      answer = await reveal(endpoint._id).unwrap();
    });
    if (refused) return onOutcome({ kind: 'error', message: refused.message });
    if (answer) onSecret('revealed', answer);
  }

  async function onDelete() {
    const refused = await sendOrRefusal(() => remove(endpoint._id).unwrap());
    setConfirming(null);
    if (refused) return onOutcome({ kind: 'error', message: refused.message });
    onDeleted(name);
  }

  async function onTest() {
    if (testing) return;
    let delivery: WebhookDelivery | undefined;
    const refused = await sendOrRefusal(async () => {
      delivery = await sendTest(endpoint._id).unwrap();
    });
    if (refused) return setTest({ kind: 'error', message: refused.message });
    if (delivery)
      setTest({ kind: delivery.status === 'failed' ? 'error' : 'success', message: testEventText(delivery) });
    setLogOpen(true);
  }

  const detail = (term: string, description: ReactNode) => (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-zinc-400">{term}:</dt>
      <dd className="min-w-0 break-words">{description}</dd>
    </div>
  );

  return (
    <li className="flex min-w-0 flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          ref={headingRef}
          tabIndex={-1}
          className={`min-w-0 text-lg text-lime-300 outline-none ${
            endpoint.description.trim() ? 'font-semibold break-words' : 'font-mono break-all'
          }`}
        >
          {name}
        </h3>
        <span
          className={`border-2 px-2 py-0.5 text-sm font-semibold ${
            endpoint.enabled ? 'border-lime-400 text-lime-300' : 'border-zinc-500 text-zinc-300'
          }`}
        >
          {endpoint.enabled ? 'On' : 'Off'}
        </span>
      </div>
      <dl className="flex flex-col gap-1 text-zinc-100">
        {endpoint.description.trim() &&
          detail('URL', <span className="font-mono break-all">{endpoint.url}</span>)}
        {detail('Events', <span className="font-mono text-sm break-all">{endpoint.events.join(', ')}</span>)}
        {!endpoint.enabled && detail('Turned off', endpoint.disabledReason ?? 'By an admin')}
        {endpoint.failingSince &&
          detail(
            'Failing since',
            <time dateTime={endpoint.failingSince} className="text-amber-300">
              {momentText(endpoint.failingSince)}
            </time>,
          )}
        {detail('Pending deliveries', String(endpoint.pending))}
        {detail('Secret', <span className="font-mono">ends in …{endpoint.secretHint}</span>)}
      </dl>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-secondary" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
        {/* One button whose action follows the state: never disabled, so the focus stays on it. */}
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`${endpoint.enabled ? 'Turn off' : 'Turn on'} ${name}`}
          onClick={() => void onToggle()}
        >
          {endpoint.enabled ? 'Turn off' : 'Turn on'}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`Send test event to ${name}`}
          aria-busy={testing}
          onClick={() => void onTest()}
        >
          {testing ? 'Sending…' : 'Send test event'}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-expanded={logOpen}
          aria-controls={logOpen ? logId : undefined}
          aria-label={`Delivery log of ${name}`}
          onClick={() => setLogOpen((open) => !open)}
        >
          {logOpen ? 'Hide delivery log' : 'Delivery log'}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`Reveal the secret of ${name}`}
          onClick={() => void onReveal()}
        >
          Reveal secret
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`Rotate the secret of ${name}`}
          onClick={() => setConfirming('rotate')}
        >
          Rotate secret
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`Delete ${name}`}
          onClick={() => setConfirming('delete')}
        >
          Delete
        </button>
      </div>
      <div aria-live="polite">
        {test && <p className={test.kind === 'success' ? 'text-lime-300' : 'text-red-500'}>{test.message}</p>}
      </div>
      {logOpen && (
        <div id={logId}>
          <WebhooksSectionDeliveries id={endpoint._id} name={name} />
        </div>
      )}
      {confirming === 'delete' && (
        <ConfirmDialog
          message={confirmDeleteText(name)}
          details="Events stop going to this address at once, and its delivery log goes with it. This cannot be undone."
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={() => void onDelete()}
          onCancel={() => setConfirming(null)}
        />
      )}
      {confirming === 'rotate' && (
        <ConfirmDialog
          message={confirmRotateText(name)}
          details="A new secret signs every event from now on: the receiver refuses them until it has the new one. The new secret is shown once."
          confirmLabel="Rotate secret"
          busy={updating}
          onConfirm={() => void onRotate()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </li>
  );
}
