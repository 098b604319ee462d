import { useId, useState, type FormEvent } from 'react';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@pixel-vault/shared';
import { Modal } from '../../ui/Modal';
import { Field } from './fields';
import { validateAndSend } from './submit';
import {
  createInput,
  EMPTY_WEBHOOK_FORM,
  endpointName,
  formFromEndpoint,
  toggleEvent,
  updateInput,
  type WebhookFormValues,
} from './webhook-form';
import { useCreateWebhookMutation, useUpdateWebhookMutation } from './webhooksApi';
import { ProblemList } from '../../ui/ProblemList';

const legendClass = 'mb-1 text-sm font-semibold tracking-wide text-cyan-300 uppercase';

/**
 * Add (no `endpoint`) or edit a webhook endpoint (issue 37), in a dialog: its address, a description,
 * the events it subscribes to and, when adding, an optional secret of the admin's own. The values are
 * checked with the shared schemas before they are sent, and the server's refusal (an address it will
 * not send to) is shown in the form. An edit sends only what changed. `onCreated` gets the endpoint
 * with its secret, to show once; `onSaved` the edited endpoint.
 */
export function WebhooksSectionForm({
  endpoint,
  onClose,
  onCreated,
  onSaved,
}: {
  endpoint?: WebhookEndpoint;
  onClose: () => void;
  onCreated: (created: WebhookEndpointWithSecret) => void;
  onSaved: (saved: WebhookEndpoint) => void;
}) {
  const [values, setValues] = useState<WebhookFormValues>(() =>
    endpoint ? formFromEndpoint(endpoint) : EMPTY_WEBHOOK_FORM,
  );
  const [problems, setProblems] = useState<string[]>([]);
  const [createWebhook, { isLoading: creating }] = useCreateWebhookMutation();
  const [updateWebhook, { isLoading: updating }] = useUpdateWebhookMutation();
  const titleId = useId();
  const eventsHintId = useId();
  const set = (key: 'url' | 'description' | 'secret') => (value: string) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblems([]);
    if (!endpoint) {
      let created: WebhookEndpointWithSecret | undefined;
      const found = await validateAndSend(CreateWebhookBody, createInput(values), async (body) => {
        created = await createWebhook(body).unwrap();
      });
      if (found.length > 0 || !created) return setProblems(found);
      return onCreated(created);
    }
    const input = updateInput(values, endpoint);
    if (Object.keys(input).length === 0) return onClose();
    let saved: WebhookEndpoint | undefined;
    const found = await validateAndSend(UpdateWebhookBody, input, async (body) => {
      saved = await updateWebhook({ id: endpoint._id, body }).unwrap();
    });
    if (found.length > 0 || !saved) return setProblems(found);
    onSaved(saved);
  }

  return (
    <Modal onClose={onClose} labelledBy={titleId}>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-5">
        <h3 id={titleId} className="pixel-heading text-base break-all text-lime-300">
          {endpoint ? `Edit ${endpointName(endpoint)}` : 'Add endpoint'}
        </h3>
        <Field
          label="URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={values.url}
          onChange={set('url')}
          hint="An https address on the receiver's server: each event is POSTed there as signed JSON."
          required
        />
        <Field
          label="Description"
          value={values.description}
          onChange={set('description')}
          maxLength={WEBHOOK_DESCRIPTION_MAX}
          hint="Optional: what receives the events (the warehouse, the accounts)."
        />
        <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={eventsHintId}>
          <legend className={legendClass}>Events</legend>
          <p id={eventsHintId} className="text-xs text-zinc-400">
            At least one: each is sent to this address when it happens.
          </p>
          <div className="flex flex-col gap-2">
            {WEBHOOK_EVENTS.map((type) => (
              <label key={type} className="flex items-start gap-3 text-zinc-100">
                <input
                  type="checkbox"
                  className="mt-0.5 h-5 w-5 shrink-0 accent-lime-400"
                  checked={values.events.includes(type)}
                  onChange={(e) =>
                    setValues((v) => ({ ...v, events: toggleEvent(v.events, type, e.target.checked) }))
                  }
                />
                <span className="flex min-w-0 flex-col">
                  <span className="font-mono text-sm break-all">{type}</span>
                  <span className="text-sm text-zinc-300">{WEBHOOK_EVENT_LABELS[type]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {!endpoint && (
          <Field
            label="Own secret"
            value={values.secret}
            onChange={set('secret')}
            autoComplete="off"
            spellCheck={false}
            hint="Optional: whsec_ and base64. Empty: the shop makes one, shown once after you add the endpoint."
          />
        )}
        <ProblemList problems={problems} />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={creating || updating}>
            {endpoint ? 'Save Changes' : 'Add Endpoint'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
