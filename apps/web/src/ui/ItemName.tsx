/**
 * An item's name with the variant's title under it (issue 31: `Complete in box / PAL`), in the cart,
 * the checkout summary and every view of an order's items; just the name for a product without options.
 */
export function ItemName({
  name,
  variantTitle,
  className = '',
}: {
  name: string;
  variantTitle?: string;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className}`}>
      <p className="font-semibold break-words text-zinc-100">{name}</p>
      {variantTitle && <p className="text-sm break-words text-zinc-400">{variantTitle}</p>}
    </div>
  );
}
