/**
 * The demo catalogue (spec sections 1, 3 and 9): invented, trademark-free products in the four
 * categories. Prices are integer cents. Box art is drawn by `box-art.ts` from the name, so nothing
 * here points at an image file.
 *
 * Reviews (issue 14) are written by the seeded customers below, each of whom gets a paid, delivered
 * order of what they review: every review is a verified buyer's, and each product's rating and review
 * count are computed from its reviews, never written here.
 *
 * Some are sold in tiers (issue 31, `TIERS` at the end): retro games Loose, Complete in box or New,
 * some in two regions, priced as retro shops price them, with tiers of stock 0 and 1 among them;
 * consoles as Console only or Boxed; one board game in two editions. The rest are sold in one form.
 *
 * Issue 35: the buy list. The shop pays store credit for its retro games and consoles, about 40 % of
 * the price (more for boxed and sealed copies), and buys no board game or puzzle but one collector's
 * edition (`tradeInCreditCents`).
 */
import type { ProductOption } from '@pixel-vault/shared';

/** The seeded customers, by key. Their password is random and never shown: nobody logs in as them. */
export const SEED_CUSTOMERS = {
  marco: { name: 'Marco Tessaro', email: 'marco.tessaro@example.com' },
  priya: { name: 'Priya Kapoor', email: 'priya.kapoor@example.com' },
  jess: { name: 'Jess Whitfield', email: 'jess.whitfield@example.com' },
  hiro: { name: 'Hiro Matsuda', email: 'hiro.matsuda@example.com' },
  lena: { name: 'Lena Vogel', email: 'lena.vogel@example.com' },
  sam: { name: 'Sam Reyes', email: 'sam.reyes@example.com' },
  nadia: { name: 'Nadia Farouk', email: 'nadia.farouk@example.com' },
  oskar: { name: 'Oskar Lindqvist', email: 'oskar.lindqvist@example.com' },
  mira: { name: 'Mira Okafor', email: 'mira.okafor@example.com' },
  felix: { name: 'Felix Navarro', email: 'felix.navarro@example.com' },
  emma: { name: 'Emma Laurent', email: 'emma.laurent@example.com' },
  joan: { name: 'Joan Pritchard', email: 'joan.pritchard@example.com' },
  chen: { name: 'Chen Wei', email: 'chen.wei@example.com' },
  helen: { name: 'Helen Moreau', email: 'helen.moreau@example.com' },
  aisha: { name: 'Aisha Bello', email: 'aisha.bello@example.com' },
  tobias: { name: 'Tobias Brandt', email: 'tobias.brandt@example.com' },
} as const;
export type SeedCustomerKey = keyof typeof SEED_CUSTOMERS;

export interface SeedReview {
  /** The seeded customer who bought the product and wrote this. */
  by: SeedCustomerKey;
  /** Whole stars, 1..5. */
  rating: number;
  title: string;
  comment: string;
}

export interface SeedVariant {
  sku: string;
  options: Record<string, string>;
  priceCents: number;
  stock: number;
  /** Issue 35: store credit paid per unit in a trade-in; null or left out: not bought. */
  tradeInCreditCents?: number | null;
}

export interface SeedProduct {
  name: string;
  category: 'retro-games' | 'board-games' | 'puzzles' | 'consoles';
  description: string;
  /** The default variant's (the first of `variants`, when there are several). */
  priceCents: number;
  stock: number;
  /**
   * Issue 33: the system it runs on or is (real system names: they are facts, not the products'
   * names, which stay invented). Retro games and consoles only.
   */
  platform?: string;
  imageCount: 1 | 2 | 3 | 4;
  reviews: SeedReview[];
  /** Issue 31: the tiers it is sold in. Without, one variant of `priceCents` and `stock`. */
  options?: ProductOption[];
  variants?: SeedVariant[];
  /** Issue 35: its one variant's trade-in credit, for a product sold in one form. */
  tradeInCreditCents?: number | null;
}

const RETRO_GAMES: SeedProduct[] = [
  {
    name: 'Neon Drift 64',
    category: 'retro-games',
    platform: 'Nintendo 64',
    description:
      'A futuristic anti-gravity racer from the late-90s 64-bit era, with twelve tracks and split-screen for up to four players. Cartridge only, cleaned and tested; the label has light shelf wear. Save battery replaced in 2024.',
    priceCents: 3499,
    stock: 14,
    imageCount: 3,
    reviews: [
      {
        by: 'marco',
        rating: 5,
        title: 'Smoothest racer on the system',
        comment: 'Still the smoothest racer on the system. Arrived clean and worked first try.',
      },
      {
        by: 'jess',
        rating: 4,
        title: 'Plays perfectly',
        comment: 'Label is a bit scuffed like the listing said, plays perfectly.',
      },
    ],
  },
  {
    name: 'Castle of Crimson Keys',
    category: 'retro-games',
    platform: 'Super Nintendo',
    description:
      'A 16-bit action-adventure: explore a cursed castle, collect seven crimson keys and outwit its clockwork guardians. Complete in box with the fold-out map and manual; the box has minor corner creasing. Single player, battery save.',
    priceCents: 8999,
    stock: 3,
    imageCount: 4,
    reviews: [
      {
        by: 'priya',
        rating: 5,
        title: 'The map alone is worth it',
        comment: 'The fold-out map alone is worth it. Box is in better shape than the photos suggest.',
      },
      {
        by: 'hiro',
        rating: 5,
        title: 'Forty hours and still finding secrets',
        comment: 'Forty hours in and I still find secret rooms.',
      },
      {
        by: 'sam',
        rating: 4,
        title: 'Great game, well-used manual',
        comment: 'Great game, wish the manual had fewer pencil marks.',
      },
    ],
  },
  {
    name: 'Pixel Pirates Deluxe',
    category: 'retro-games',
    platform: 'NES',
    description:
      'A bright 8-bit platformer in which a crew of pixel pirates sails across six island worlds hunting buried treasure. This Deluxe reissue adds two bonus islands and a level select. Cartridge and sleeve in good condition; 1-2 players, alternating turns.',
    priceCents: 2449,
    stock: 22,
    imageCount: 2,
    reviews: [
      {
        by: 'lena',
        rating: 4,
        title: 'A hit with the kids',
        comment: 'My kids (7 and 9) love it. Some of the jumps are brutal.',
      },
      { by: 'sam', rating: 4, title: 'Cheerful and tight', comment: 'Cheerful music, tight controls.' },
    ],
  },
  {
    name: 'Starlight Sentinel',
    category: 'retro-games',
    platform: 'Sega Mega Drive',
    description:
      'A vertical shoot-em-up from 1989 with a screen-filling boss at the end of each of its eight stages. Loose cartridge with a clean label, contacts cleaned and tested. 1-2 players at the same time.',
    priceCents: 1999,
    stock: 31,
    imageCount: 1,
    reviews: [
      {
        by: 'marco',
        rating: 4,
        title: 'Hard as nails',
        comment: 'Hard as nails, exactly how I remember it.',
      },
      {
        by: 'oskar',
        rating: 3,
        title: 'Authentic slowdown included',
        comment: 'Some slowdown when the screen gets busy, but I guess that is authentic.',
      },
    ],
  },
  {
    name: 'Dungeon Depths II: The Amber Crypt',
    category: 'retro-games',
    platform: 'Super Nintendo',
    description:
      'The sought-after sequel in the turn-based dungeon-crawler series, with a party of four, sixty floors and a famously long final battle. Complete in big box: cartridge, cloth map, 120-page guidebook and registration card. Collector condition, and this is our only copy.',
    priceCents: 12999,
    stock: 1,
    imageCount: 4,
    reviews: [
      {
        by: 'hiro',
        rating: 5,
        title: 'Packed like a museum piece',
        comment: 'Cloth map was still in its bag. Packed like a museum piece.',
      },
      {
        by: 'priya',
        rating: 5,
        title: 'Best dungeon crawler of the era',
        comment: 'Best dungeon crawler of the era, no contest.',
      },
    ],
  },
  {
    name: "Turbo Rally '93",
    category: 'retro-games',
    platform: 'Super Nintendo',
    description:
      'Top-down arcade rally racing with 24 courses across deserts, forests and snowy passes, plus a track editor. Loose cartridge with some sticker residue on the back, fully tested. 1-4 players with a multitap.',
    priceCents: 1499,
    stock: 40,
    imageCount: 2,
    reviews: [
      {
        by: 'jess',
        rating: 3,
        title: 'Better with friends',
        comment: 'Fun with friends, a bit thin on your own.',
      },
      {
        by: 'nadia',
        rating: 4,
        title: 'The track editor is the star',
        comment: 'The track editor kept us busy all weekend.',
      },
    ],
  },
  {
    name: 'Moonbase Mayhem',
    category: 'retro-games',
    platform: 'Sega Mega Drive',
    description:
      'A quirky 1994 puzzle-action game: steer a lunar rover, stack supply crates and keep the base running before the oxygen runs out. Cartridge with the original manual, very good condition. One player, 40 levels with password saves.',
    priceCents: 2900,
    stock: 0,
    imageCount: 3,
    reviews: [
      {
        by: 'oskar',
        rating: 4,
        title: 'Relaxing, then the alarm goes off',
        comment: 'Strangely relaxing until the oxygen alarm goes off.',
      },
    ],
  },
  {
    name: 'Ghostlight Manor',
    category: 'retro-games',
    platform: 'PlayStation',
    description:
      'A slow-burn survival horror adventure on two discs, set in a lantern-lit mansion with fixed camera angles. Complete with case, manual and both discs in near-mint condition. Recommended for ages 16 and up.',
    priceCents: 4499,
    stock: 9,
    imageCount: 3,
    reviews: [
      {
        by: 'mira',
        rating: 5,
        title: 'Spotless discs, still scary',
        comment: 'Discs are spotless. Still scared of the piano room.',
      },
      {
        by: 'felix',
        rating: 4,
        title: 'Give the controls an hour',
        comment: 'The controls take an hour to click, then it is brilliant.',
      },
    ],
  },
  {
    name: 'Thunder Fist Arena',
    category: 'retro-games',
    platform: 'Sega Mega Drive',
    description:
      'A 16-bit one-on-one fighter with twelve characters, secret moves and a tournament mode for up to eight friends. Cartridge and original box; the box has an old price sticker on the back. 1-2 players.',
    priceCents: 2749,
    stock: 18,
    imageCount: 2,
    reviews: [
      {
        by: 'marco',
        rating: 4,
        title: 'Still settles arguments',
        comment: 'Still settles every argument in our flat.',
      },
      { by: 'emma', rating: 4, title: 'Lovely copy', comment: 'Price sticker on the box, otherwise lovely.' },
      {
        by: 'sam',
        rating: 3,
        title: 'Unbalanced but fun',
        comment: 'Balance is all over the place. Fun anyway.',
      },
    ],
  },
  {
    name: 'Skyward Knights Chronicle',
    category: 'retro-games',
    platform: 'PlayStation',
    description:
      'An airship role-playing epic on three discs, with around sixty hours of story, turn-based battles and a sky-pirate guild to join. Complete in box with the art booklet; the discs show only light surface marks. Single player.',
    priceCents: 6499,
    stock: 6,
    imageCount: 4,
    reviews: [
      {
        by: 'priya',
        rating: 5,
        title: 'That soundtrack',
        comment: 'The soundtrack alone is worth the price.',
      },
      {
        by: 'hiro',
        rating: 5,
        title: 'All three discs load fine',
        comment: 'All three discs load without a hiccup.',
      },
    ],
  },
  {
    name: 'Bubble Burst Bonanza',
    category: 'retro-games',
    platform: 'Game Boy',
    description:
      'A colourful match-three bubble shooter with 100 stages and a frantic two-player versus mode. Loose cartridge, label slightly faded. A good pick-up-and-play game for ages 6 and up.',
    priceCents: 1299,
    stock: 26,
    imageCount: 1,
    reviews: [
      {
        by: 'joan',
        rating: 3,
        title: 'Easy to learn',
        comment: 'Easy for me to learn, the grandkids beat me anyway.',
      },
    ],
  },
  {
    name: 'Hyperloop Havoc',
    category: 'retro-games',
    platform: 'Nintendo 64',
    description:
      'A factory-sealed copy of a late-era high-speed puzzle racer, still in its original shrink-wrap with the hang tab intact. We have not opened it, so the contents are exactly as they left the factory. 1-2 players.',
    priceCents: 17999,
    stock: 1,
    imageCount: 2,
    reviews: [],
  },
];

const BOARD_GAMES: SeedProduct[] = [
  {
    name: 'Gridlock Gambit',
    category: 'board-games',
    description:
      "A tense two-player abstract strategy game: slide blockers across a 9x9 grid to trap your opponent's runner. Rounds take about 20 minutes; easy rules, deep tactics. New, with a wooden board and 24 turned pieces, ages 10 and up.",
    priceCents: 3299,
    stock: 24,
    imageCount: 3,
    reviews: [
      {
        by: 'chen',
        rating: 5,
        title: 'Every night after dinner',
        comment: 'We play a round every night after dinner.',
      },
      {
        by: 'helen',
        rating: 4,
        title: 'Lovely wooden pieces',
        comment: 'The wooden pieces feel great in the hand.',
      },
    ],
  },
  {
    name: 'Harbor Lanterns',
    category: 'board-games',
    description:
      'A cosy worker-placement game for 2-4 players: send your fishing boats out at dusk, trade at the night market and light lanterns along the pier. About 60 minutes, ages 12 and up. New and sealed.',
    priceCents: 4999,
    stock: 17,
    imageCount: 4,
    reviews: [
      {
        by: 'aisha',
        rating: 5,
        title: 'Gorgeous, and the insert fits',
        comment: 'Gorgeous art, and the insert actually fits everything.',
      },
      { by: 'tobias', rating: 4, title: 'Best with three', comment: 'Plays best with three.' },
    ],
  },
  {
    name: "Dragon's Tithe",
    category: 'board-games',
    description:
      'A fantasy deck-building game in which 2-5 players collect tribute for a grumpy dragon without becoming its lunch. Includes 240 cards, five player mats and a hoard board. About 45 minutes, ages 10 and up, new.',
    priceCents: 5400,
    stock: 12,
    imageCount: 3,
    reviews: [
      {
        by: 'tobias',
        rating: 4,
        title: 'A great first deck builder',
        comment: 'A great first deck builder for our group.',
      },
      {
        by: 'nadia',
        rating: 5,
        title: 'We are hooked',
        comment: 'The dragon art is fantastic, we are hooked.',
      },
    ],
  },
  {
    name: 'Railbarons of the Iron Valley',
    category: 'board-games',
    description:
      'Build rail lines, float shares and haul coal through a mountain valley in this heavy economic game for 3-5 players. Plays in 2-3 hours, ages 14 and up. Pre-owned: every component counted and present, box lightly worn.',
    priceCents: 7999,
    stock: 5,
    imageCount: 2,
    reviews: [
      {
        by: 'chen',
        rating: 5,
        title: 'Complete, as promised',
        comment: 'Every component was there, as promised.',
      },
      {
        by: 'aisha',
        rating: 4,
        title: 'A real brain-burner',
        comment: 'A brain-burner. Not one for beginners.',
      },
    ],
  },
  {
    name: 'Meeple Meadows',
    category: 'board-games',
    description:
      'A gentle tile-laying family game: grow meadows, rivers and farms, then place your little wooden farmers to score. 2-5 players, 30 minutes, ages 7 and up. New, with 84 tiles and 40 wooden figures.',
    priceCents: 2949,
    stock: 33,
    imageCount: 3,
    reviews: [
      {
        by: 'lena',
        rating: 5,
        title: 'Our seven-year-old wins',
        comment: 'Our seven-year-old wins more often than we do.',
      },
      { by: 'joan', rating: 4, title: 'Simple and pretty', comment: 'Simple and pretty.' },
      {
        by: 'tobias',
        rating: 4,
        title: "For friends who don't do games",
        comment: 'A great first board game for friends who "don\'t do games".',
      },
    ],
  },
  {
    name: 'Sunken Temple Escape',
    category: 'board-games',
    description:
      'A cooperative race to escape a flooding temple before the water rises. For 1-4 players, 30 minutes, ages 10 and up. Includes modular temple tiles, a water tracker and six explorer figures, new in shrink-wrap.',
    priceCents: 3999,
    stock: 0,
    imageCount: 2,
    reviews: [
      {
        by: 'emma',
        rating: 4,
        title: 'Tense in the best way',
        comment: 'Tense in the best way. We lost five times in a row.',
      },
      { by: 'mira', rating: 5, title: 'Perfect co-op for two', comment: 'Perfect co-op for two.' },
    ],
  },
  {
    name: 'Quill & Quarrel',
    category: 'board-games',
    description:
      'A quick party word game: draw a prompt card, scribble your wittiest answer and vote for the best. 4-10 players, 20 minutes, ages 12 and up. New, with 300 prompt cards, ten dry-erase boards and pens.',
    priceCents: 1999,
    stock: 38,
    imageCount: 1,
    reviews: [
      {
        by: 'lena',
        rating: 4,
        title: 'Christmas chaos',
        comment: 'Chaos at our family Christmas, in a good way.',
      },
      {
        by: 'jess',
        rating: 3,
        title: 'Funny cards, dry pens',
        comment: 'The pens dried out quickly; the cards are funny.',
      },
    ],
  },
  {
    name: 'Cosmic Colonies: Deluxe Edition',
    category: 'board-games',
    description:
      'The big-box edition of the space colonisation game, with painted miniatures, metal coins and both expansions included. 2-6 players, 90-120 minutes, ages 12 and up. New and sealed.',
    priceCents: 11999,
    stock: 4,
    imageCount: 4,
    reviews: [
      {
        by: 'chen',
        rating: 5,
        title: 'Those metal coins',
        comment: 'The metal coins make every purchase feel great.',
      },
      {
        by: 'nadia',
        rating: 5,
        title: 'Worth the upgrade',
        comment: 'Worth the upgrade over the base game.',
      },
    ],
  },
  {
    name: 'Tiny Tavern Brawl',
    category: 'board-games',
    description:
      'A pocket-size card game of tavern brawls, flying mugs and sneaky bards for 2-6 players. Rounds take 15 minutes, ages 8 and up. New, 110 cards in a tin.',
    priceCents: 1499,
    stock: 29,
    imageCount: 1,
    reviews: [
      { by: 'oskar', rating: 3, title: 'Fun but random', comment: 'Fun filler but very random.' },
      {
        by: 'emma',
        rating: 4,
        title: 'Comes to every pub night',
        comment: 'Fits in my jacket pocket, comes to every pub night.',
      },
    ],
  },
  {
    name: 'Heist at Midnight Museum',
    category: 'board-games',
    description:
      'A social-deduction game in which a gang of thieves plans a museum heist while one of them secretly works for the police. 5-10 players, 30 minutes, ages 13 and up. New.',
    priceCents: 2499,
    stock: 21,
    imageCount: 2,
    reviews: [
      {
        by: 'aisha',
        rating: 4,
        title: 'Friendships survived. Mostly.',
        comment: 'Accusations flew. Friendships survived. Mostly.',
      },
    ],
  },
  {
    name: "The Clockmaker's Guild",
    category: 'board-games',
    description:
      'A medium-weight strategy game about building intricate clocks from gears, springs and brass parts. 1-4 players with a solo mode, 75 minutes, ages 12 and up. New, with 120 wooden gear tokens.',
    priceCents: 6499,
    stock: 8,
    imageCount: 3,
    reviews: [
      { by: 'helen', rating: 5, title: 'Excellent solo mode', comment: 'The solo mode is excellent.' },
      {
        by: 'tobias',
        rating: 4,
        title: 'Elegant game, murky rulebook',
        comment: 'The rulebook could be clearer; the game itself is elegant.',
      },
    ],
  },
  {
    name: "Grand Archipelago Collector's Edition",
    category: 'board-games',
    description:
      'A numbered collector edition of the island-hopping exploration epic, with a linen-finish board, 48 painted ships and a wooden storage crate. 2-5 players, 2-3 hours, ages 14 and up. New and sealed.',
    priceCents: 18900,
    stock: 2,
    imageCount: 4,
    reviews: [
      {
        by: 'felix',
        rating: 5,
        title: 'Furniture-grade crate',
        comment: 'The crate alone is furniture-grade.',
      },
    ],
  },
];

const PUZZLES: SeedProduct[] = [
  {
    name: 'Starfall 1000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1000-piece jigsaw of a meteor shower over a pixel-art mountain village, finished size 68 x 48 cm. Thick pieces with a linen finish, plus a poster of the image in the box. New and sealed, ages 12 and up.',
    priceCents: 2199,
    stock: 27,
    imageCount: 3,
    reviews: [
      {
        by: 'helen',
        rating: 5,
        title: 'No false fits',
        comment: 'Pieces snap together nicely, no false fits.',
      },
      {
        by: 'mira',
        rating: 4,
        title: 'The sky is hard in a good way',
        comment: 'The sky section is hard in the best way.',
      },
    ],
  },
  {
    name: 'Arcade Nights 500-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 500-piece puzzle of a neon-lit 1980s arcade packed with cabinets, posters and players. Finished size 49 x 36 cm; new, with a reference poster. A nice single evening, ages 10 and up.',
    priceCents: 1649,
    stock: 35,
    imageCount: 2,
    reviews: [
      {
        by: 'jess',
        rating: 4,
        title: 'Full of little jokes',
        comment: 'Spotted so many little jokes in the cabinet art.',
      },
      { by: 'marco', rating: 5, title: 'Two evenings of fun', comment: 'Two evenings of fun.' },
    ],
  },
  {
    name: '8-Bit Skyline 1500-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1500-piece jigsaw of a city skyline at sunset in chunky 8-bit pixel style, finished size 84 x 60 cm. The pixel blocks make it trickier than it looks. New and sealed, ages 14 and up.',
    priceCents: 2799,
    stock: 14,
    imageCount: 3,
    reviews: [
      { by: 'mira', rating: 5, title: 'Framed on our wall', comment: 'Looks amazing framed on our wall.' },
    ],
  },
  {
    name: 'Cartridge Collage 1000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1000-piece collage of more than 80 invented game cartridges, each with its own label art. Finished size 68 x 48 cm. New, with a poster and a checklist of every made-up title, ages 12 and up.',
    priceCents: 2299,
    stock: 0,
    imageCount: 2,
    reviews: [
      {
        by: 'marco',
        rating: 5,
        title: 'I read every label',
        comment: 'Found myself reading every single label.',
      },
      {
        by: 'helen',
        rating: 4,
        title: 'A busy week of puzzling',
        comment: 'Very busy image, it took us a week.',
      },
    ],
  },
  {
    name: 'Retro Living Room 2000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 2000-piece scene of a 1990s living room: a chunky TV, a stack of consoles and a cat asleep on the controller cables. Finished size 98 x 68 cm. New, ages 14 and up.',
    priceCents: 3499,
    stock: 10,
    imageCount: 3,
    reviews: [
      {
        by: 'joan',
        rating: 5,
        title: 'So much nostalgia',
        comment: 'So much nostalgia. The cat is my favourite part.',
      },
      { by: 'emma', rating: 4, title: 'Clear a big table', comment: 'You will need a big table.' },
    ],
  },
  {
    name: 'Pixel Forest 300-Piece Big-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 300-piece puzzle with extra-large pieces for younger puzzlers and easy handling. A pixel-art forest full of hidden animals to spot, finished size 61 x 46 cm. New, ages 6 and up.',
    priceCents: 1299,
    stock: 39,
    imageCount: 1,
    reviews: [
      {
        by: 'lena',
        rating: 4,
        title: 'Just right for a six-year-old',
        comment: 'Just right for my six-year-old.',
      },
    ],
  },
  {
    name: 'Gearbox Puzzle Box',
    category: 'puzzles',
    description:
      'A wooden puzzle box that opens only after a sequence of eleven sliding and turning moves, with a small secret compartment inside. Laser-cut birch plywood, 15 x 11 x 10 cm. Arrives assembled, with the solution sealed in an envelope; ages 14 and up.',
    priceCents: 4400,
    stock: 7,
    imageCount: 4,
    reviews: [
      {
        by: 'oskar',
        rating: 5,
        title: 'Beautiful craft',
        comment: 'Two evenings without the envelope. Beautiful craft.',
      },
      {
        by: 'aisha',
        rating: 4,
        title: 'A lovely gift box afterwards',
        comment: 'Makes a lovely gift box afterwards.',
      },
    ],
  },
  {
    name: 'Brass Labyrinth Marble Maze',
    category: 'puzzles',
    description:
      'A tilting marble maze with a brass-coloured frame and three interchangeable labyrinth plates, from easy to fiendish. Measures 23 x 23 cm, steel ball included. New, ages 8 and up.',
    priceCents: 3849,
    stock: 12,
    imageCount: 2,
    reviews: [
      {
        by: 'sam',
        rating: 4,
        title: 'The last plate is hard',
        comment: 'The hardest plate is genuinely hard.',
      },
      {
        by: 'helen',
        rating: 3,
        title: 'Plastic frame',
        comment: 'The frame is plastic rather than metal, though it looks nice.',
      },
    ],
  },
  {
    name: 'Cube of Nine Interlocking Puzzle',
    category: 'puzzles',
    description:
      'A nine-piece interlocking wooden burr puzzle that assembles into a 6 cm cube. Solid beech, new. A solution sheet is included for when you give up; ages 10 and up.',
    priceCents: 999,
    stock: 40,
    imageCount: 1,
    reviews: [
      {
        by: 'felix',
        rating: 3,
        title: 'Now I cannot take it apart',
        comment: 'Solved it in ten minutes, now I cannot take it apart.',
      },
      { by: 'priya', rating: 4, title: 'Nice desk fidget', comment: 'Nice thing to fiddle with at my desk.' },
    ],
  },
  {
    name: 'Vaporwave Sunset 1000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1000-piece jigsaw of a pastel sunset over a grid-lined sea and palm trees, finished size 68 x 48 cm. Long colour gradients make it a real challenge. New and sealed, ages 12 and up.',
    priceCents: 1999,
    stock: 19,
    imageCount: 2,
    reviews: [
      { by: 'nadia', rating: 4, title: 'That gradient sky', comment: 'The gradient sky nearly broke me.' },
    ],
  },
  {
    name: 'The Great Game Shelf 3000-Piece Puzzle',
    category: 'puzzles',
    description:
      'Our biggest puzzle: 3000 pieces showing a floor-to-ceiling shelf of board games, consoles and collectibles. Finished size 116 x 80 cm, packed in three numbered bags. New, ages 14 and up.',
    priceCents: 5499,
    stock: 6,
    imageCount: 4,
    reviews: [
      {
        by: 'joan',
        rating: 5,
        title: 'Numbered bags are a blessing',
        comment: 'Numbered bags are a blessing at this size.',
      },
      { by: 'chen', rating: 5, title: 'A month of happy evenings', comment: 'A month of happy evenings.' },
    ],
  },
  {
    name: 'Handcrafted Walnut Jigsaw, 250 Pieces',
    category: 'puzzles',
    description:
      'A 250-piece wooden jigsaw laser-cut from walnut veneer, with 25 whimsy pieces shaped like dice, joysticks and little figures. Comes in a wooden box with a sliding lid, made in a small workshop. New, ages 12 and up.',
    priceCents: 10900,
    stock: 1,
    imageCount: 4,
    reviews: [],
  },
];

const CONSOLES: SeedProduct[] = [
  {
    name: 'Vaultling Mini Console',
    category: 'consoles',
    platform: 'Plug and play',
    description:
      'A palm-sized plug-and-play console with 120 built-in arcade-style games, HDMI output and two wired controllers. New in box, with a USB power cable. A quick retro fix for ages 6 and up.',
    priceCents: 4999,
    stock: 25,
    imageCount: 3,
    reviews: [
      {
        by: 'sam',
        rating: 4,
        title: 'Good fun for the price',
        comment: 'Good fun for the price, some games are filler.',
      },
      {
        by: 'hiro',
        rating: 3,
        title: 'Short controller cables',
        comment: 'The controller cables are short.',
      },
      { by: 'jess', rating: 4, title: 'Set up in two minutes', comment: 'Set up in two minutes.' },
    ],
  },
  {
    name: 'Aurora 16 Home Console',
    category: 'consoles',
    platform: 'Super Nintendo',
    description:
      'A refurbished 16-bit home console from the early 1990s, with new capacitors, a cleaned cartridge slot and a de-yellowed shell. Includes one original controller, power supply and AV cable. Covered by our 90-day warranty.',
    priceCents: 14999,
    stock: 11,
    imageCount: 4,
    reviews: [
      {
        by: 'felix',
        rating: 5,
        title: 'Looks brand new',
        comment: 'Looks brand new and the picture is crisp.',
      },
      {
        by: 'emma',
        rating: 4,
        title: 'Fast shipping, worn pad',
        comment: 'Shipped fast; the controller is a little worn.',
      },
    ],
  },
  {
    name: 'Nebula 64 Console Bundle',
    category: 'consoles',
    platform: 'Nintendo 64',
    description:
      'A tested 64-bit console from the late 1990s, bundled with two controllers, a memory card and a copy of Neon Drift 64. The shell is in very good condition with light yellowing on the back. AV and power cables included.',
    priceCents: 22999,
    stock: 7,
    imageCount: 4,
    reviews: [
      {
        by: 'marco',
        rating: 5,
        title: 'Four-player nights are back',
        comment: 'Four-player nights are back.',
      },
      {
        by: 'oskar',
        rating: 4,
        title: 'Packed really carefully',
        comment: 'The bundle was packed really carefully.',
      },
    ],
  },
  {
    name: 'Comet Handheld Color',
    category: 'consoles',
    platform: 'Game Boy Color',
    description:
      'A colour-screen handheld from 1998, refurbished with a new glass lens and battery door. Runs for about ten hours on two AA batteries. The shell has light scratches; tested with several cartridges.',
    priceCents: 8999,
    stock: 13,
    imageCount: 3,
    reviews: [
      {
        by: 'priya',
        rating: 4,
        title: 'The new lens makes the difference',
        comment: 'The new lens makes a huge difference.',
      },
      {
        by: 'jess',
        rating: 5,
        title: 'Straight back to long car trips',
        comment: 'Took me straight back to long car trips.',
      },
    ],
  },
  {
    name: 'Orbit CD Console',
    category: 'consoles',
    platform: 'PlayStation',
    description:
      'A 32-bit CD console from 1995 with a top-loading drive, a refurbished laser and a new lid spring. Includes one controller, a memory card and all cables. Tested with more than twenty discs.',
    priceCents: 19900,
    stock: 0,
    imageCount: 3,
    reviews: [
      {
        by: 'hiro',
        rating: 4,
        title: 'Reads scratched discs',
        comment: 'The laser reads even my scratched discs.',
      },
    ],
  },
  {
    name: 'Titan Arcade Stick Console',
    category: 'consoles',
    platform: 'Plug and play',
    description:
      "An all-in-one arcade stick with 60 built-in fighting and shooting games, full-size buttons and a heavy steel base that doesn't slide around. Plugs into any TV over HDMI. New in box; add a second stick for two players.",
    priceCents: 12999,
    stock: 9,
    imageCount: 2,
    reviews: [
      {
        by: 'sam',
        rating: 4,
        title: 'Feels like a real cabinet',
        comment: 'The buttons feel like a real cabinet.',
      },
      {
        by: 'chen',
        rating: 4,
        title: 'Heavy and sturdy',
        comment: 'Heavy and sturdy, stays put on the table.',
      },
    ],
  },
  {
    name: 'Duo-Slot Retro Console',
    category: 'consoles',
    platform: 'Multi-system',
    description:
      'A modern console that plays original cartridges in two classic 8-bit and 16-bit formats, with HDMI output and save states. New in box. Two wireless controllers included.',
    priceCents: 11949,
    stock: 16,
    imageCount: 3,
    reviews: [
      { by: 'felix', rating: 4, title: 'Played everything', comment: 'Played everything I threw at it.' },
      {
        by: 'nadia',
        rating: 3,
        title: 'A little input lag',
        comment: 'A tiny bit of input lag, fine for RPGs.',
      },
    ],
  },
  {
    name: 'Zephyr Portable Handheld',
    category: 'consoles',
    platform: 'Multi-system',
    description:
      'A modern open-source handheld with a 3.5-inch screen, a 5000 mAh battery and an SD card slot for homebrew and your own backups. New in box. Comes with a USB-C cable and a screen protector.',
    priceCents: 7999,
    stock: 20,
    imageCount: 3,
    reviews: [
      { by: 'mira', rating: 5, title: 'Gorgeous screen', comment: 'The screen is gorgeous.' },
      {
        by: 'tobias',
        rating: 4,
        title: 'Battery lasts the round trip',
        comment: 'Battery lasts a train ride there and back.',
      },
    ],
  },
  {
    name: 'Prism 32 Limited Edition',
    category: 'consoles',
    platform: 'Sega Saturn',
    description:
      'A numbered limited edition of the 1996 Prism 32 in a translucent violet shell. Complete in its original box with inserts, manual and both controllers. Collector condition, and we have a single unit.',
    priceCents: 34999,
    stock: 1,
    imageCount: 4,
    reviews: [
      {
        by: 'hiro',
        rating: 5,
        title: 'Every insert original',
        comment: 'The box is crisp and every insert is original.',
      },
    ],
  },
  {
    name: 'Aurora 16 Wireless Controller',
    category: 'consoles',
    platform: 'Super Nintendo',
    description:
      'A 2.4 GHz wireless controller for the Aurora 16 with the original button layout, a plug-in receiver and a rechargeable battery good for about 20 hours. New in box.',
    priceCents: 2499,
    stock: 32,
    imageCount: 1,
    reviews: [
      { by: 'felix', rating: 2, title: 'Lag in fast games', comment: 'Occasional lag in fast games.' },
      {
        by: 'priya',
        rating: 4,
        title: 'Fine for RPGs',
        comment: 'Fine for RPGs, and no more tangled cables.',
      },
      { by: 'aisha', rating: 3, title: 'Stiff D-pad', comment: 'The D-pad is a bit stiff.' },
    ],
  },
  {
    name: 'Galaxy Micro Arcade Cabinet',
    category: 'consoles',
    platform: 'Plug and play',
    description:
      'A 1:6 scale tabletop arcade cabinet with a 4-inch screen, a working joystick and eight built-in space shooters. Runs on batteries or USB power; new in box. A desk ornament that actually plays.',
    priceCents: 6499,
    stock: 15,
    imageCount: 2,
    reviews: [],
  },
  {
    name: 'Lumen Pocket Backlit Edition',
    category: 'consoles',
    platform: 'Game Boy',
    description:
      'A classic monochrome handheld rebuilt in our workshop with a backlit screen, a USB-C rechargeable battery and new buttons. Every unit runs a 24-hour test before it ships. Includes a carrying pouch.',
    priceCents: 16999,
    stock: 0,
    imageCount: 4,
    reviews: [
      { by: 'jess', rating: 5, title: 'Flawless backlight', comment: 'The backlight mod is flawless.' },
      { by: 'sam', rating: 5, title: 'Worth the wait', comment: 'Worth the wait for the restock.' },
    ],
  },
];

const CONDITION = (...values: string[]): ProductOption => ({ name: 'Condition', values });
const REGION: ProductOption = { name: 'Region', values: ['NTSC-U', 'PAL'] };
const PACKAGE: ProductOption = { name: 'Package', values: ['Console only', 'Boxed'] };
const tier = (sku: string, options: Record<string, string>, priceCents: number, stock: number) => ({
  sku,
  options,
  priceCents,
  stock,
});

/** The tiers of the products sold in several forms, by name; the first is the product's default. */
const TIERS: Record<string, Pick<SeedProduct, 'options' | 'variants'>> = {
  'Neon Drift 64': {
    options: [CONDITION('Loose', 'Complete in box', 'New'), REGION],
    variants: [
      tier('ND64-L-U', { Condition: 'Loose', Region: 'NTSC-U' }, 3499, 14),
      tier('ND64-L-P', { Condition: 'Loose', Region: 'PAL' }, 2999, 3),
      tier('ND64-CIB-U', { Condition: 'Complete in box', Region: 'NTSC-U' }, 8999, 2),
      tier('ND64-CIB-P', { Condition: 'Complete in box', Region: 'PAL' }, 7999, 1),
      tier('ND64-NEW-U', { Condition: 'New', Region: 'NTSC-U' }, 24999, 0),
    ],
  },
  'Castle of Crimson Keys': {
    options: [CONDITION('Loose', 'Complete in box', 'New')],
    variants: [
      tier('CCK-L', { Condition: 'Loose' }, 8999, 3),
      tier('CCK-CIB', { Condition: 'Complete in box' }, 19999, 1),
      tier('CCK-NEW', { Condition: 'New' }, 44999, 0),
    ],
  },
  'Pixel Pirates Deluxe': {
    options: [CONDITION('Loose', 'Complete in box', 'New')],
    variants: [
      tier('PPD-L', { Condition: 'Loose' }, 2449, 22),
      tier('PPD-CIB', { Condition: 'Complete in box' }, 5999, 4),
      tier('PPD-NEW', { Condition: 'New' }, 12999, 1),
    ],
  },
  'Thunder Fist Arena': {
    options: [CONDITION('Complete in box', 'New')],
    variants: [
      tier('TFA-CIB', { Condition: 'Complete in box' }, 2749, 18),
      tier('TFA-NEW', { Condition: 'New' }, 6999, 1),
    ],
  },
  'Vaultling Mini Console': {
    options: [PACKAGE],
    variants: [
      tier('VMC-CO', { Package: 'Console only' }, 4999, 25),
      tier('VMC-BOX', { Package: 'Boxed' }, 6499, 5),
    ],
  },
  'Aurora 16 Home Console': {
    options: [PACKAGE],
    variants: [
      tier('A16-CO', { Package: 'Console only' }, 14999, 11),
      tier('A16-BOX', { Package: 'Boxed' }, 21999, 1),
    ],
  },
  'Comet Handheld Color': {
    options: [{ name: 'Colour', values: ['Teal', 'Grape', 'Clear Black'] }, PACKAGE],
    variants: [
      tier('CHC-TEAL-CO', { Colour: 'Teal', Package: 'Console only' }, 8999, 13),
      tier('CHC-GRAPE-CO', { Colour: 'Grape', Package: 'Console only' }, 8999, 4),
      tier('CHC-TEAL-BOX', { Colour: 'Teal', Package: 'Boxed' }, 12999, 2),
      tier('CHC-BLACK-BOX', { Colour: 'Clear Black', Package: 'Boxed' }, 13999, 0),
    ],
  },
  'Railbarons of the Iron Valley': {
    options: [{ name: 'Edition', values: ['Standard', "Collector's"] }],
    variants: [
      tier('RIV-STD', { Edition: 'Standard' }, 7999, 5),
      tier('RIV-COL', { Edition: "Collector's" }, 11999, 1),
    ],
  },
};

/** Share of the price paid in store credit, by tier: a boxed or sealed copy is worth more to the shop. */
const CREDIT_SHARE: Record<string, number> = { 'Complete in box': 0.45, Boxed: 0.45, New: 0.5 };
/** The only board game or puzzle the shop buys: its collector's edition. */
const BOUGHT_EDITION = "Collector's";

/**
 * Issue 35: what the shop pays per unit in store credit, as retro shops do: retro games and consoles at
 * 40 % of the price (45 % complete in box or boxed, 50 % new), rounded to 50 cents; null (not bought)
 * for board games and puzzles but the collector's edition (30 %), and for what would fetch under $1.
 */
export function seedTradeInCredit(
  product: Pick<SeedProduct, 'category'>,
  variant: Pick<SeedVariant, 'options' | 'priceCents'>,
): number | null {
  const values = Object.values(variant.options);
  const retro = product.category === 'retro-games' || product.category === 'consoles';
  if (!retro && !values.includes(BOUGHT_EDITION)) return null;
  const share = retro ? Math.max(0.4, ...values.map((v) => CREDIT_SHARE[v] ?? 0)) : 0.3;
  const cents = Math.round((variant.priceCents * share) / 50) * 50;
  return cents >= 100 ? cents : null;
}

export const SEED_PRODUCTS: SeedProduct[] = [...RETRO_GAMES, ...BOARD_GAMES, ...PUZZLES, ...CONSOLES].map(
  (product) => {
    const tiers = TIERS[product.name];
    const first = tiers?.variants?.[0];
    if (!tiers?.variants || !first) {
      return { ...product, tradeInCreditCents: seedTradeInCredit(product, { ...product, options: {} }) };
    }
    const variants = tiers.variants.map((v) => ({ ...v, tradeInCreditCents: seedTradeInCredit(product, v) }));
    // The product's own price and stock are its default tier's, as the API answers them.
    return { ...product, ...tiers, variants, priceCents: first.priceCents, stock: first.stock };
  },
);
