import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { nameWithVariant } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useConfirmAlertMutation } from './api';

/**
 * /alerts/confirm/:token (issue 34): the link of a visitor's confirmation mail. The page sends the token
 * once it is open in a browser (opening the link itself changes nothing: the server acts on the POST
 * only, which mail scanners do not send), then says what was confirmed, with a link to the product.
 */
export default function AlertConfirmPage() {
  useDocumentTitle('Confirm alert');
  const { token = '' } = useParams();
  const [confirm, { data, error, isLoading, isUninitialized }] = useConfirmAlertMutation();
  const sent = useRef('');
  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    confirm(token).catch(() => undefined);
  }, [token, confirm]);

  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      <h1 className="pixel-heading text-xl text-lime-300 sm:text-2xl">Back-in-stock alert</h1>
      <div role="status" aria-live="polite">
        {data && <p className="font-semibold text-zinc-100">{data.message}</p>}
      </div>
      {(isLoading || isUninitialized) && <Spinner label="Confirming your alert" />}
      {error && <ErrorLine message={errorMessage(error)} />}
      {data && (
        <p className="text-zinc-300">
          {data.inStock ? 'It is in stock now: ' : 'You are waiting for '}
          <Link
            to={`/shop/${data.category}/product/${data.product}?variant=${data.variant}`}
            className="font-semibold text-cyan-300 underline-offset-4 hover:underline"
          >
            {nameWithVariant(data.name, data.variantTitle ?? '')}
          </Link>
        </p>
      )}
    </section>
  );
}
