/** The shop's five social networks (spec section 2: footer and contact page; placeholders the owner edits). */
export const SOCIAL_LINKS = [
  { label: 'Pixel Vault on X', href: 'https://x.com/', d: 'M2 2h3l9 12h-3zM12 2h2L4 14H2z' },
  {
    label: 'Pixel Vault on Facebook',
    href: 'https://www.facebook.com/',
    d: 'M9 2h4v3h-3v2h3v3h-3v4H7v-4H5V7h2V4h1V3h1z',
  },
  {
    label: 'Pixel Vault on Instagram',
    href: 'https://www.instagram.com/',
    d: 'M3 2h10v1h1v10h-1v1H3v-1H2V3h1zM4 4v8h8V4zM6 6h4v4H6zM11 4h1v1h-1z',
  },
  {
    label: 'Pixel Vault on YouTube',
    href: 'https://www.youtube.com/',
    d: 'M2 4h12v1h1v6h-1v1H2v-1H1V5h1zM6 6v4l4-2z',
  },
  {
    label: 'Pixel Vault on Twitch',
    href: 'https://www.twitch.tv/',
    d: 'M3 2h11v8l-3 3H9l-2 2H5v-2H2V4zM5 4v7h2v2l2-2h2l1-1V4zM7 6h1v3H7zM10 6h1v3h-1z',
  },
];

/** The social links as a list of pixel icons, each opening in a new tab without handing over the opener. */
export function SocialLinks({
  className,
  linkClassName,
  iconClassName = 'h-6 w-6',
}: {
  className?: string;
  linkClassName?: string;
  iconClassName?: string;
}) {
  return (
    <ul className={className} aria-label="Social networks">
      {SOCIAL_LINKS.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={link.label}
            className={linkClassName}
          >
            <svg viewBox="0 0 16 16" className={iconClassName} shapeRendering="crispEdges" aria-hidden="true">
              <path fill="currentColor" fillRule="evenodd" d={link.d} />
            </svg>
          </a>
        </li>
      ))}
    </ul>
  );
}
