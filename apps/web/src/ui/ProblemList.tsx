/**
 * A form's problems, one per line, announced as an alert (in red); nothing at all when there are none.
 * The admin's forms (products, users, promotions, variants, webhooks) list what their validation found
 * this way.
 */
export function ProblemList({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul role="alert" className="text-red-500">
      {problems.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}
