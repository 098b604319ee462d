import { Link } from 'react-router';
import { HOME_FAVOURITES } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useFavourites } from './favourites';
import { PixelSprite } from './PixelSprite';
import { PRODUCT_GRID_CLASS, ProductCard, ProductGridSkeleton } from './ProductCard';

function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="hero relative overflow-hidden border-b-4 border-lime-400"
    >
      <div className="starfield starfield-far" aria-hidden="true" />
      <div className="starfield starfield-near" aria-hidden="true" />
      <div className="relative mx-auto flex max-w-6xl flex-col items-center gap-8 px-4 py-16 text-center sm:py-24">
        <PixelSprite className="sprite-bounce h-16 w-20 text-fuchsia-400 sm:h-20 sm:w-28" />
        <h1 id="hero-title" className="pixel-heading text-2xl leading-relaxed text-lime-300 sm:text-4xl">
          Level up your collection
        </h1>
        <p className="max-w-xl text-lg text-zinc-200">
          Retro games, board games, puzzles and consoles — hand-picked, tested and ready to play.
        </p>
        <Link to="/shop/retro-games" className="btn btn-primary btn-lg">
          Shop Now
        </Link>
        <p className="press-start pixel-heading text-xs text-cyan-300" aria-hidden="true">
          Press start
        </p>
      </div>
    </section>
  );
}

function Favourites() {
  const { favourites, error } = useFavourites();
  return (
    <section aria-labelledby="favourites-title" className="mx-auto max-w-6xl px-4 py-12">
      <h2 id="favourites-title" className="pixel-heading mb-8 text-center text-lg text-cyan-300 sm:text-2xl">
        A few of our Favorites
      </h2>
      {error ? (
        <ErrorLine message={error} />
      ) : !favourites ? (
        <ProductGridSkeleton count={HOME_FAVOURITES} />
      ) : favourites.length === 0 ? (
        <p className="text-center text-zinc-300">No products found</p>
      ) : (
        <ul className={PRODUCT_GRID_CLASS}>
          {favourites.map((product, index) => (
            <li key={product._id}>
              <ProductCard product={product} priority={index === 0} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Home (spec section 2): hero with 'Shop Now', then six random favourites loaded on entry. It uses no
 * data layer (favourites.ts), so its first download carries none.
 */
export function HomePage() {
  useDocumentTitle();
  return (
    <>
      <Hero />
      <Favourites />
    </>
  );
}
