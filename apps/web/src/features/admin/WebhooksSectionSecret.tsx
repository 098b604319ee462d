import { useId, useState } from 'react';
import { Modal } from '../../ui/Modal';

/** Why the secret is on screen: a new endpoint, a rotated secret, or the admin asked to see it. */
export type SecretReason = 'created' | 'rotated' | 'revealed';

const TITLES: Record<SecretReason, string> = {
  created: 'Endpoint added: its signing secret',
  rotated: 'New signing secret',
  revealed: 'Signing secret',
};

const NOTES: Record<SecretReason, string> = {
  created:
    'Store it now in the receiver’s settings: the list shows only its last characters (an admin can reveal it again here). The receiver checks each event’s webhook-signature with it.',
  rotated:
    'Store it now in the receiver’s settings: events are signed with it from now on, and the old secret no longer works.',
  revealed: 'Keep it private: anyone with it can sign events as the shop.',
};

/**
 * An endpoint's whole signing secret (issue 37), in a dialog: after it was added or its secret rotated
 * (the only times the server answers it unasked), and when an admin reveals it. The dialog is
 * described by what to do with it, so a screen reader says so; "Copy secret" takes the focus and says
 * whether it copied.
 */
export function WebhooksSectionSecret({
  reason,
  url,
  secret,
  onClose,
}: {
  reason: SecretReason;
  url: string;
  secret: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const noteId = useId();
  const secretId = useId();
  const [copied, setCopied] = useState('');

  async function copy() {
    const done = await navigator.clipboard
      ?.writeText(secret)
      .then(() => true)
      .catch(() => false);
    setCopied(done ? 'Secret copied' : 'Could not copy: please select the secret and copy it');
  }

  return (
    <Modal onClose={onClose} labelledBy={titleId} describedBy={noteId}>
      <div className="flex flex-col gap-4">
        <h3 id={titleId} className="pixel-heading text-base text-lime-300">
          {TITLES[reason]}
        </h3>
        <p className="text-sm break-all text-zinc-300">{url}</p>
        <p id={noteId} className="font-semibold text-amber-200">
          {NOTES[reason]}
        </p>
        <code
          id={secretId}
          className="border-2 border-lime-400 px-3 py-2 font-mono text-base break-all text-lime-300 select-all"
        >
          {secret}
        </code>
        <p aria-live="polite" className="text-sm text-lime-300">
          {copied}
        </p>
        <div className="flex flex-wrap justify-end gap-3">
          <button
            type="button"
            className="btn btn-secondary"
            aria-describedby={secretId}
            onClick={() => void copy()}
          >
            Copy secret
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {reason === 'revealed' ? 'Close' : 'I have stored it'}
          </button>
        </div>
      </div>
    </Modal>
  );
}
