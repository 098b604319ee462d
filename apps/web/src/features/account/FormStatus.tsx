/**
 * A form's polite status line: present from the start (a live region added with its text is often not
 * announced), it says what is happening and then that the change was made.
 */
export function FormStatus({ message }: { message: string | null }) {
  return (
    <p role="status" className={message ? 'font-semibold text-lime-300' : 'sr-only'}>
      {message}
    </p>
  );
}
