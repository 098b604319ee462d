import { Link } from 'react-router';
import { SocialLinks } from '../../ui/SocialLinks';
import { Logo } from '../../ui/Logo';

/** Site footer (spec section 2): /sell (issue 35), /contact, /credits, /about, five social links, the rights line. */
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
              <Link to="/sell" className="footer-link">
                Sell us your games
              </Link>
            </li>
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
        <SocialLinks className="flex gap-2" linkClassName="icon-btn text-zinc-300 hover:text-cyan-300" />
      </div>
      <p className="border-t-2 border-zinc-800 py-4 text-center text-sm text-zinc-400">
        © 2024 All rights reserved
      </p>
    </footer>
  );
}
