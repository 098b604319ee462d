import { useState, type FormEvent } from 'react';
import { ContactBody } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useSendContactMessageMutation } from './api';
import { SocialLinks } from '../../ui/SocialLinks';
import { LabelledField } from '../../ui/LabelledField';
import { SHOP_ADDRESS, SHOP_EMAIL } from './contactInfo';

const SENT = 'Message sent. Wait to hear back from us.';
const FAILED = 'Something went wrong. Please try again.';

/** Statuses whose server message helps the sender (bad input, too long, too many messages). */
const DETAIL_STATUSES = new Set<unknown>([400, 413, 422, 429]);

type Outcome =
  { kind: 'sent' } | { kind: 'failed'; detail: string | null } | { kind: 'invalid'; detail: string };

/** `.field`, `.btn`, `.pixel-heading` are the app's theme classes (src/index.css). */
const fieldClass = 'field w-full bg-zinc-950';
const sideHeading = 'pixel-heading mb-3 text-xs text-fuchsia-300';

/** /contact (spec section 2): Name, Email, Message, all required; 'Send Message'. */
export default function ContactPage() {
  const [send, { isLoading }] = useSendContactMessageMutation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useDocumentTitle('Contact Us');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    const parsed = ContactBody.safeParse({ from_name: name, from_email: email, message });
    if (!parsed.success) {
      setOutcome({ kind: 'invalid', detail: parsed.error.issues[0]?.message ?? 'Please check the form' });
      return;
    }
    try {
      await send(parsed.data).unwrap();
      setName('');
      setEmail('');
      setMessage('');
      setOutcome({ kind: 'sent' });
    } catch (error) {
      // What the sender typed is kept so they can try again.
      const status = (error as { status?: unknown } | null)?.status;
      setOutcome({ kind: 'failed', detail: DETAIL_STATUSES.has(status) ? errorMessage(error) : null });
    }
  }

  return (
    <div className="mx-auto my-10 w-full max-w-5xl px-4">
      <h1 className="pixel-heading mb-8 text-center text-xl text-lime-400 sm:text-2xl">Contact Us</h1>
      <div className="grid gap-8 md:grid-cols-5">
        <form
          onSubmit={onSubmit}
          aria-label="Contact form"
          className="flex flex-col gap-4 border-2 border-fuchsia-500 bg-zinc-900 p-6 shadow-[6px_6px_0_0_#22d3ee] md:col-span-3"
        >
          <LabelledField label="Name">
            {({ id }) => (
              <input
                id={id}
                name="from_name"
                autoComplete="name"
                required
                value={name}
                onChange={(e) => setName(e.target.value)}
                className={fieldClass}
              />
            )}
          </LabelledField>
          <LabelledField label="Email">
            {({ id }) => (
              <input
                id={id}
                type="email"
                name="from_email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className={fieldClass}
              />
            )}
          </LabelledField>
          <LabelledField label="Message">
            {({ id }) => (
              <textarea
                id={id}
                name="message"
                required
                rows={6}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                className={`${fieldClass} resize-y`}
              />
            )}
          </LabelledField>
          <button type="submit" disabled={isLoading} className="btn btn-primary mt-2">
            {isLoading ? 'Sending...' : 'Send Message'}
          </button>
          <div aria-live="polite">
            {outcome?.kind === 'sent' && (
              <p role="status" className="font-semibold text-lime-400">
                {SENT}
              </p>
            )}
          </div>
          {outcome?.kind === 'failed' && (
            <div role="alert" className="text-red-400">
              <p className="font-semibold">{FAILED}</p>
              {outcome.detail && <p className="mt-1 text-sm">{outcome.detail}</p>}
            </div>
          )}
          {outcome?.kind === 'invalid' && (
            <p role="alert" className="text-red-400">
              {outcome.detail}
            </p>
          )}
        </form>

        <aside aria-label="Other ways to reach us" className="flex flex-col gap-6 md:col-span-2">
          <section>
            <h2 className={sideHeading}>E-mail</h2>
            <a
              href={`mailto:${SHOP_EMAIL}`}
              className="break-all text-cyan-300 underline underline-offset-4 hover:text-fuchsia-300"
            >
              {SHOP_EMAIL}
            </a>
          </section>
          <section>
            <h2 className={sideHeading}>Visit us</h2>
            <address className="text-zinc-200 not-italic">
              {SHOP_ADDRESS.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
          </section>
          <section>
            <h2 className={sideHeading}>Follow us</h2>
            <SocialLinks
              className="flex flex-wrap gap-3"
              linkClassName="flex h-12 w-12 items-center justify-center border-2 border-cyan-300 bg-zinc-900 text-cyan-300 hover:border-fuchsia-300 hover:text-fuchsia-300"
            />
          </section>
        </aside>
      </div>
    </div>
  );
}
