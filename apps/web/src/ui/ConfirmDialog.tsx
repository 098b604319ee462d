import { useId, type ReactNode } from 'react';
import { Modal } from './Modal';

export interface ConfirmDialogProps {
  /** The question, e.g. 'Are you sure you want to delete this product?'. */
  message: string;
  /** What will happen, under the question (announced with it). */
  details?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Disables the confirm button while the action runs. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** An accessible yes/no question in the app's Modal (focus trap, Escape cancels), instead of window.confirm. */
export function ConfirmDialog({
  message,
  details,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  const detailsId = useId();
  return (
    <Modal onClose={onCancel} labelledBy={titleId} describedBy={details ? detailsId : undefined}>
      <p id={titleId} className={`${details ? 'mb-3' : 'mb-6'} text-lg text-zinc-100`}>
        {message}
      </p>
      {details && (
        <div id={detailsId} className="mb-6 text-zinc-300">
          {details}
        </div>
      )}
      <div className="flex justify-end gap-3">
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
