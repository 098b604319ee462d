import { Link } from 'react-router';
import { Logo } from '../../ui/Logo';

/** Placeholder profiles until the shop has its own accounts (spec section 2: five social links). */
const SOCIAL_LINKS = [
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

/** Site footer (spec section 2): /contact, /credits, /about, five social links, the rights line. */
export function Footer() {
  return (
    <footer className="mt-16 border-t-4 border-fuchsia-500 bg-zinc-950">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 md:flex-row md:items-start md:justify-between">
        <div className="flex items-center gap-3">
          <Logo className="h-8 w-8" />
          <span className="pixel-heading text-sm text-lime-300">Pixel Vault</span>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <Link to="/contact" className="footer-link">
                Contact
              </Link>
            </li>
            <li>
              <Link to="/credits" className="footer-link">
                Credits
              </Link>
            </li>
            <li>
              <Link to="/about" className="footer-link">
                About
              </Link>
            </li>
          </ul>
        </nav>
        <ul className="flex gap-2" aria-label="Social networks">
          {SOCIAL_LINKS.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={link.label}
                className="icon-btn text-zinc-300 hover:text-cyan-300"
              >
                <svg viewBox="0 0 16 16" className="h-6 w-6" shapeRendering="crispEdges" aria-hidden="true">
                  <path fill="currentColor" fillRule="evenodd" d={link.d} />
                </svg>
              </a>
            </li>
          ))}
        </ul>
      </div>
      <p className="border-t-2 border-zinc-800 py-4 text-center text-sm text-zinc-400">
        © 2024 All rights reserved
      </p>
    </footer>
  );
}
