/** Spec section 8: list and detail views show 'Error: {message}' (in red). */
export function ErrorLine({ message, prefix = 'Error: ' }: { message: string; prefix?: string }) {
  return (
    <p role="alert" className="text-red-500">
      {prefix}
      {message}
    </p>
  );
}
