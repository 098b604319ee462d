/** Where the review form will be while its code loads: about its height, so the reviews below stay put. */
export function ReviewFormLoading() {
  return (
    <div role="status" className="min-h-[28rem] border-4 border-zinc-800 bg-zinc-900 p-4 text-zinc-400">
      Loading the form...
    </div>
  );
}
