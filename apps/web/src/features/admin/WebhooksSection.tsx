import { useCallback, useRef, useState } from 'react';
import {
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@pixel-vault/shared';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { endpointName } from './webhook-form';
import { useGetWebhooksQuery } from './webhooksApi';
import { WebhooksSectionForm } from './WebhooksSectionForm';
import { WebhooksSectionItem, type Outcome } from './WebhooksSectionItem';
import { WebhooksSectionSecret, type SecretReason } from './WebhooksSectionSecret';

export const NO_WEBHOOKS = 'No endpoints yet: add one to send the shop’s events to another system.';

/**
 * Webhooks (issue 37, docs/integrations.md): the addresses the shop POSTs its events to, signed with
 * each one's secret (Standard Webhooks). Add, edit, turn off and on, rotate or reveal the secret,
 * delete, send a test event, and read each one's delivery log. A new or rotated secret is shown once,
 * in a dialog that says to store it; after it closes the new endpoint takes the focus.
 */
export function WebhooksSection() {
  // Read again each time the section opens: the worker changes the pending counts and failure states.
  const { data, error, isLoading } = useGetWebhooksQuery(undefined, { refetchOnMountOrArgChange: true });
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<{ reason: SecretReason; endpoint: WebhookEndpointWithSecret } | null>(
    null,
  );
  const [focusId, setFocusId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);
  const endpoints = data?.endpoints ?? [];
  const full = endpoints.length >= WEBHOOK_ENDPOINTS_MAX;

  function onCreated(created: WebhookEndpointWithSecret) {
    setEditing(null);
    setOutcome({ kind: 'success', message: `${endpointName(created)} added` });
    setSecret({ reason: 'created', endpoint: created });
  }

  function onSaved(saved: WebhookEndpoint) {
    setEditing(null);
    setOutcome({ kind: 'success', message: `${endpointName(saved)} saved` });
  }

  function onSecretClosed() {
    // A new endpoint is looked at where it is listed; a rotated or revealed secret gives the focus back.
    if (secret?.reason === 'created') setFocusId(secret.endpoint._id);
    setSecret(null);
  }

  function onDeleted(name: string) {
    setOutcome({ kind: 'success', message: `${name} deleted` });
    // Its item (and the button that had the focus) is gone: the reader hears what happened.
    setTimeout(() => outcomeRef.current?.focus(), 0);
  }

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <p className="text-zinc-300">
        The shop POSTs each event an endpoint subscribes to as signed JSON (Standard Webhooks), retrying for
        24 hours until the receiver answers 2xx.
      </p>
      <div className="flex flex-col gap-1">
        <button
          type="button"
          className="btn btn-primary self-start"
          disabled={full}
          onClick={() => setEditing('new')}
        >
          Add endpoint
        </button>
        {full && (
          <p className="text-sm text-zinc-400">
            At most {WEBHOOK_ENDPOINTS_MAX} endpoints: delete one to add another.
          </p>
        )}
      </div>
      <div ref={outcomeRef} tabIndex={-1} aria-live="polite" className="outline-none">
        {outcome?.kind === 'success' && <p className="text-lime-300">{outcome.message}</p>}
        {outcome?.kind === 'error' && <ErrorLine message={outcome.message} />}
      </div>
      {isLoading ? (
        <Spinner label="Loading webhook endpoints" />
      ) : error ? (
        <ErrorLine message={readableError(error)} />
      ) : endpoints.length === 0 ? (
        <p className="text-zinc-300">{NO_WEBHOOKS}</p>
      ) : (
        <ul aria-label="Webhook endpoints" className="flex flex-col gap-4">
          {endpoints.map((endpoint) => (
            <WebhooksSectionItem
              key={endpoint._id}
              endpoint={endpoint}
              focused={endpoint._id === focusId}
              onFocused={clearFocus}
              onEdit={() => setEditing(endpoint)}
              onSecret={(reason, withSecret) => setSecret({ reason, endpoint: withSecret })}
              onOutcome={setOutcome}
              onDeleted={onDeleted}
            />
          ))}
        </ul>
      )}
      {editing && (
        <WebhooksSectionForm
          key={editing === 'new' ? 'new' : editing._id}
          endpoint={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onCreated={onCreated}
          onSaved={onSaved}
        />
      )}
      {secret && (
        <WebhooksSectionSecret
          reason={secret.reason}
          url={secret.endpoint.url}
          secret={secret.endpoint.secret}
          onClose={onSecretClosed}
        />
      )}
    </div>
  );
}
