/** A team member's picture, kept crisp when the 8x8 pixel avatar is scaled up. */
export function MemberPhoto({ src, name }: { src: string; name: string }) {
  return (
    <img
      src={src}
      alt={name}
      width={96}
      height={96}
      loading="lazy"
      className="h-24 w-24 border-2 border-cyan-300 bg-zinc-950 [image-rendering:pixelated]"
    />
  );
}
