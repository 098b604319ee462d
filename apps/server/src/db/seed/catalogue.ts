/**
 * The demo catalogue (spec sections 1, 3 and 9): invented, trademark-free products in the four
 * categories. Prices are integer cents; `reviewCount` is the shop's total, `reviews` a few samples.
 * Box art is drawn by `box-art.ts` from the name, so nothing here points at an image file.
 */

export interface SeedReview {
  author: string;
  rating: number;
  comment: string;
}

export interface SeedProduct {
  name: string;
  category: 'retro-games' | 'board-games' | 'puzzles' | 'consoles';
  description: string;
  priceCents: number;
  stock: number;
  rating: number;
  reviewCount: number;
  imageCount: 1 | 2 | 3 | 4;
  reviews: SeedReview[];
}

const RETRO_GAMES: SeedProduct[] = [
  {
    name: 'Neon Drift 64',
    category: 'retro-games',
    description:
      'A futuristic anti-gravity racer from the late-90s 64-bit era, with twelve tracks and split-screen for up to four players. Cartridge only, cleaned and tested; the label has light shelf wear. Save battery replaced in 2024.',
    priceCents: 3499,
    stock: 14,
    rating: 4.6,
    reviewCount: 212,
    imageCount: 3,
    reviews: [
      {
        author: 'Marco T.',
        rating: 5,
        comment: 'Still the smoothest racer on the system. Arrived clean and worked first try.',
      },
      {
        author: 'Jess',
        rating: 4,
        comment: 'Label is a bit scuffed like the listing said, plays perfectly.',
      },
    ],
  },
  {
    name: 'Castle of Crimson Keys',
    category: 'retro-games',
    description:
      'A 16-bit action-adventure: explore a cursed castle, collect seven crimson keys and outwit its clockwork guardians. Complete in box with the fold-out map and manual; the box has minor corner creasing. Single player, battery save.',
    priceCents: 8999,
    stock: 3,
    rating: 4.8,
    reviewCount: 147,
    imageCount: 4,
    reviews: [
      {
        author: 'Priya K.',
        rating: 5,
        comment: 'The fold-out map alone is worth it. Box is in better shape than the photos suggest.',
      },
      { author: 'oldschoolgamer', rating: 5, comment: 'Forty hours in and I still find secret rooms.' },
      { author: 'Daniel', rating: 4, comment: 'Great game, wish the manual had fewer pencil marks.' },
    ],
  },
  {
    name: 'Pixel Pirates Deluxe',
    category: 'retro-games',
    description:
      'A bright 8-bit platformer in which a crew of pixel pirates sails across six island worlds hunting buried treasure. This Deluxe reissue adds two bonus islands and a level select. Cartridge and sleeve in good condition; 1-2 players, alternating turns.',
    priceCents: 2449,
    stock: 22,
    rating: 4.2,
    reviewCount: 88,
    imageCount: 2,
    reviews: [
      { author: 'Lena', rating: 4, comment: 'My kids (7 and 9) love it. Some of the jumps are brutal.' },
      { author: 'Sam R.', rating: 4, comment: 'Cheerful music, tight controls.' },
    ],
  },
  {
    name: 'Starlight Sentinel',
    category: 'retro-games',
    description:
      'A vertical shoot-em-up from 1989 with a screen-filling boss at the end of each of its eight stages. Loose cartridge with a clean label, contacts cleaned and tested. 1-2 players at the same time.',
    priceCents: 1999,
    stock: 31,
    rating: 3.9,
    reviewCount: 64,
    imageCount: 1,
    reviews: [
      { author: 'Kev', rating: 4, comment: 'Hard as nails, exactly how I remember it.' },
      {
        author: 'A. Novak',
        rating: 3,
        comment: 'Some slowdown when the screen gets busy, but I guess that is authentic.',
      },
    ],
  },
  {
    name: 'Dungeon Depths II: The Amber Crypt',
    category: 'retro-games',
    description:
      'The sought-after sequel in the turn-based dungeon-crawler series, with a party of four, sixty floors and a famously long final battle. Complete in big box: cartridge, cloth map, 120-page guidebook and registration card. Collector condition, and this is our only copy.',
    priceCents: 12999,
    stock: 1,
    rating: 4.9,
    reviewCount: 41,
    imageCount: 4,
    reviews: [
      {
        author: 'Hiro M.',
        rating: 5,
        comment: 'Cloth map was still in its bag. Packed like a museum piece.',
      },
      { author: 'Beatrice', rating: 5, comment: 'Best dungeon crawler of the era, no contest.' },
    ],
  },
  {
    name: "Turbo Rally '93",
    category: 'retro-games',
    description:
      'Top-down arcade rally racing with 24 courses across deserts, forests and snowy passes, plus a track editor. Loose cartridge with some sticker residue on the back, fully tested. 1-4 players with a multitap.',
    priceCents: 1499,
    stock: 40,
    rating: 3.6,
    reviewCount: 120,
    imageCount: 2,
    reviews: [
      { author: 'Tom', rating: 3, comment: 'Fun with friends, a bit thin on your own.' },
      { author: 'Nadia F.', rating: 4, comment: 'The track editor kept us busy all weekend.' },
    ],
  },
  {
    name: 'Moonbase Mayhem',
    category: 'retro-games',
    description:
      'A quirky 1994 puzzle-action game: steer a lunar rover, stack supply crates and keep the base running before the oxygen runs out. Cartridge with the original manual, very good condition. One player, 40 levels with password saves.',
    priceCents: 2900,
    stock: 0,
    rating: 4.1,
    reviewCount: 37,
    imageCount: 3,
    reviews: [{ author: 'Oskar', rating: 4, comment: 'Strangely relaxing until the oxygen alarm goes off.' }],
  },
  {
    name: 'Ghostlight Manor',
    category: 'retro-games',
    description:
      'A slow-burn survival horror adventure on two discs, set in a lantern-lit mansion with fixed camera angles. Complete with case, manual and both discs in near-mint condition. Recommended for ages 16 and up.',
    priceCents: 4499,
    stock: 9,
    rating: 4.4,
    reviewCount: 73,
    imageCount: 3,
    reviews: [
      { author: 'Mira', rating: 5, comment: 'Discs are spotless. Still scared of the piano room.' },
      {
        author: 'J. Okafor',
        rating: 4,
        comment: 'The controls take an hour to click, then it is brilliant.',
      },
    ],
  },
  {
    name: 'Thunder Fist Arena',
    category: 'retro-games',
    description:
      'A 16-bit one-on-one fighter with twelve characters, secret moves and a tournament mode for up to eight friends. Cartridge and original box; the box has an old price sticker on the back. 1-2 players.',
    priceCents: 2749,
    stock: 18,
    rating: 4.0,
    reviewCount: 156,
    imageCount: 2,
    reviews: [
      { author: 'Rico', rating: 4, comment: 'Still settles every argument in our flat.' },
      { author: 'Emma L.', rating: 4, comment: 'Price sticker on the box, otherwise lovely.' },
      { author: 'fistfan88', rating: 3, comment: 'Balance is all over the place. Fun anyway.' },
    ],
  },
  {
    name: 'Skyward Knights Chronicle',
    category: 'retro-games',
    description:
      'An airship role-playing epic on three discs, with around sixty hours of story, turn-based battles and a sky-pirate guild to join. Complete in box with the art booklet; the discs show only light surface marks. Single player.',
    priceCents: 6499,
    stock: 6,
    rating: 4.7,
    reviewCount: 98,
    imageCount: 4,
    reviews: [
      { author: 'Sofia', rating: 5, comment: 'The soundtrack alone is worth the price.' },
      { author: 'Lukas B.', rating: 5, comment: 'All three discs load without a hiccup.' },
    ],
  },
  {
    name: 'Bubble Burst Bonanza',
    category: 'retro-games',
    description:
      'A colourful match-three bubble shooter with 100 stages and a frantic two-player versus mode. Loose cartridge, label slightly faded. A good pick-up-and-play game for ages 6 and up.',
    priceCents: 1299,
    stock: 26,
    rating: 3.3,
    reviewCount: 19,
    imageCount: 1,
    reviews: [
      { author: 'Grandma Jo', rating: 3, comment: 'Easy for me to learn, the grandkids beat me anyway.' },
    ],
  },
  {
    name: 'Hyperloop Havoc',
    category: 'retro-games',
    description:
      'A factory-sealed copy of a late-era high-speed puzzle racer, still in its original shrink-wrap with the hang tab intact. We have not opened it, so the contents are exactly as they left the factory. 1-2 players.',
    priceCents: 17999,
    stock: 1,
    rating: 0,
    reviewCount: 0,
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
    rating: 4.5,
    reviewCount: 189,
    imageCount: 3,
    reviews: [
      { author: 'Chen W.', rating: 5, comment: 'We play a round every night after dinner.' },
      { author: 'Ruth', rating: 4, comment: 'The wooden pieces feel great in the hand.' },
    ],
  },
  {
    name: 'Harbor Lanterns',
    category: 'board-games',
    description:
      'A cosy worker-placement game for 2-4 players: send your fishing boats out at dusk, trade at the night market and light lanterns along the pier. About 60 minutes, ages 12 and up. New and sealed.',
    priceCents: 4999,
    stock: 17,
    rating: 4.6,
    reviewCount: 264,
    imageCount: 4,
    reviews: [
      { author: 'Aisha', rating: 5, comment: 'Gorgeous art, and the insert actually fits everything.' },
      { author: 'Mark D.', rating: 4, comment: 'Plays best with three.' },
    ],
  },
  {
    name: "Dragon's Tithe",
    category: 'board-games',
    description:
      'A fantasy deck-building game in which 2-5 players collect tribute for a grumpy dragon without becoming its lunch. Includes 240 cards, five player mats and a hoard board. About 45 minutes, ages 10 and up, new.',
    priceCents: 5400,
    stock: 12,
    rating: 4.3,
    reviewCount: 92,
    imageCount: 3,
    reviews: [
      { author: 'Tobias', rating: 4, comment: 'A great first deck builder for our group.' },
      { author: 'Nell', rating: 5, comment: 'The dragon art is fantastic, we are hooked.' },
    ],
  },
  {
    name: 'Railbarons of the Iron Valley',
    category: 'board-games',
    description:
      'Build rail lines, float shares and haul coal through a mountain valley in this heavy economic game for 3-5 players. Plays in 2-3 hours, ages 14 and up. Pre-owned: every component counted and present, box lightly worn.',
    priceCents: 7999,
    stock: 5,
    rating: 4.7,
    reviewCount: 58,
    imageCount: 2,
    reviews: [
      { author: 'Gerhard', rating: 5, comment: 'Every component was there, as promised.' },
      { author: 'Ines', rating: 4, comment: 'A brain-burner. Not one for beginners.' },
    ],
  },
  {
    name: 'Meeple Meadows',
    category: 'board-games',
    description:
      'A gentle tile-laying family game: grow meadows, rivers and farms, then place your little wooden farmers to score. 2-5 players, 30 minutes, ages 7 and up. New, with 84 tiles and 40 wooden figures.',
    priceCents: 2949,
    stock: 33,
    rating: 4.4,
    reviewCount: 301,
    imageCount: 3,
    reviews: [
      { author: 'Lotte', rating: 5, comment: 'Our seven-year-old wins more often than we do.' },
      { author: 'P. Haas', rating: 4, comment: 'Simple and pretty.' },
      { author: 'Carl', rating: 4, comment: 'A great first board game for friends who "don\'t do games".' },
    ],
  },
  {
    name: 'Sunken Temple Escape',
    category: 'board-games',
    description:
      'A cooperative race to escape a flooding temple before the water rises. For 1-4 players, 30 minutes, ages 10 and up. Includes modular temple tiles, a water tracker and six explorer figures, new in shrink-wrap.',
    priceCents: 3999,
    stock: 0,
    rating: 4.2,
    reviewCount: 143,
    imageCount: 2,
    reviews: [
      { author: 'Ben', rating: 4, comment: 'Tense in the best way. We lost five times in a row.' },
      { author: 'Mei', rating: 5, comment: 'Perfect co-op for two.' },
    ],
  },
  {
    name: 'Quill & Quarrel',
    category: 'board-games',
    description:
      'A quick party word game: draw a prompt card, scribble your wittiest answer and vote for the best. 4-10 players, 20 minutes, ages 12 and up. New, with 300 prompt cards, ten dry-erase boards and pens.',
    priceCents: 1999,
    stock: 38,
    rating: 3.8,
    reviewCount: 77,
    imageCount: 1,
    reviews: [
      { author: 'Hannah', rating: 4, comment: 'Chaos at our family Christmas, in a good way.' },
      { author: 'Ollie', rating: 3, comment: 'The pens dried out quickly; the cards are funny.' },
    ],
  },
  {
    name: 'Cosmic Colonies: Deluxe Edition',
    category: 'board-games',
    description:
      'The big-box edition of the space colonisation game, with painted miniatures, metal coins and both expansions included. 2-6 players, 90-120 minutes, ages 12 and up. New and sealed.',
    priceCents: 11999,
    stock: 4,
    rating: 4.8,
    reviewCount: 66,
    imageCount: 4,
    reviews: [
      { author: 'Farid', rating: 5, comment: 'The metal coins make every purchase feel great.' },
      { author: 'Kim', rating: 5, comment: 'Worth the upgrade over the base game.' },
    ],
  },
  {
    name: 'Tiny Tavern Brawl',
    category: 'board-games',
    description:
      'A pocket-size card game of tavern brawls, flying mugs and sneaky bards for 2-6 players. Rounds take 15 minutes, ages 8 and up. New, 110 cards in a tin.',
    priceCents: 1499,
    stock: 29,
    rating: 3.5,
    reviewCount: 48,
    imageCount: 1,
    reviews: [
      { author: 'Sven', rating: 3, comment: 'Fun filler but very random.' },
      { author: 'Ada', rating: 4, comment: 'Fits in my jacket pocket, comes to every pub night.' },
    ],
  },
  {
    name: 'Heist at Midnight Museum',
    category: 'board-games',
    description:
      'A social-deduction game in which a gang of thieves plans a museum heist while one of them secretly works for the police. 5-10 players, 30 minutes, ages 13 and up. New.',
    priceCents: 2499,
    stock: 21,
    rating: 4.1,
    reviewCount: 110,
    imageCount: 2,
    reviews: [{ author: 'Zoe', rating: 4, comment: 'Accusations flew. Friendships survived. Mostly.' }],
  },
  {
    name: "The Clockmaker's Guild",
    category: 'board-games',
    description:
      'A medium-weight strategy game about building intricate clocks from gears, springs and brass parts. 1-4 players with a solo mode, 75 minutes, ages 12 and up. New, with 120 wooden gear tokens.',
    priceCents: 6499,
    stock: 8,
    rating: 4.5,
    reviewCount: 84,
    imageCount: 3,
    reviews: [
      { author: 'Eleanor', rating: 5, comment: 'The solo mode is excellent.' },
      { author: 'Raj', rating: 4, comment: 'The rulebook could be clearer; the game itself is elegant.' },
    ],
  },
  {
    name: "Grand Archipelago Collector's Edition",
    category: 'board-games',
    description:
      'A numbered collector edition of the island-hopping exploration epic, with a linen-finish board, 48 painted ships and a wooden storage crate. 2-5 players, 2-3 hours, ages 14 and up. New and sealed.',
    priceCents: 18900,
    stock: 2,
    rating: 4.9,
    reviewCount: 12,
    imageCount: 4,
    reviews: [{ author: 'Viktor', rating: 5, comment: 'The crate alone is furniture-grade.' }],
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
    rating: 4.6,
    reviewCount: 233,
    imageCount: 3,
    reviews: [
      { author: 'Helen', rating: 5, comment: 'Pieces snap together nicely, no false fits.' },
      { author: 'Matt', rating: 4, comment: 'The sky section is hard in the best way.' },
    ],
  },
  {
    name: 'Arcade Nights 500-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 500-piece puzzle of a neon-lit 1980s arcade packed with cabinets, posters and players. Finished size 49 x 36 cm; new, with a reference poster. A nice single evening, ages 10 and up.',
    priceCents: 1649,
    stock: 35,
    rating: 4.3,
    reviewCount: 140,
    imageCount: 2,
    reviews: [
      { author: 'Dee', rating: 4, comment: 'Spotted so many little jokes in the cabinet art.' },
      { author: 'Jonas', rating: 5, comment: 'Two evenings of fun.' },
    ],
  },
  {
    name: '8-Bit Skyline 1500-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1500-piece jigsaw of a city skyline at sunset in chunky 8-bit pixel style, finished size 84 x 60 cm. The pixel blocks make it trickier than it looks. New and sealed, ages 14 and up.',
    priceCents: 2799,
    stock: 14,
    rating: 4.5,
    reviewCount: 96,
    imageCount: 3,
    reviews: [{ author: 'Ilse', rating: 5, comment: 'Looks amazing framed on our wall.' }],
  },
  {
    name: 'Cartridge Collage 1000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1000-piece collage of more than 80 invented game cartridges, each with its own label art. Finished size 68 x 48 cm. New, with a poster and a checklist of every made-up title, ages 12 and up.',
    priceCents: 2299,
    stock: 0,
    rating: 4.7,
    reviewCount: 188,
    imageCount: 2,
    reviews: [
      { author: 'Pete', rating: 5, comment: 'Found myself reading every single label.' },
      { author: 'Alina', rating: 4, comment: 'Very busy image, it took us a week.' },
    ],
  },
  {
    name: 'Retro Living Room 2000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 2000-piece scene of a 1990s living room: a chunky TV, a stack of consoles and a cat asleep on the controller cables. Finished size 98 x 68 cm. New, ages 14 and up.',
    priceCents: 3499,
    stock: 10,
    rating: 4.4,
    reviewCount: 71,
    imageCount: 3,
    reviews: [
      { author: 'Marta', rating: 5, comment: 'So much nostalgia. The cat is my favourite part.' },
      { author: 'Greg', rating: 4, comment: 'You will need a big table.' },
    ],
  },
  {
    name: 'Pixel Forest 300-Piece Big-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 300-piece puzzle with extra-large pieces for younger puzzlers and easy handling. A pixel-art forest full of hidden animals to spot, finished size 61 x 46 cm. New, ages 6 and up.',
    priceCents: 1299,
    stock: 39,
    rating: 4.0,
    reviewCount: 52,
    imageCount: 1,
    reviews: [{ author: 'Tanya', rating: 4, comment: 'Just right for my six-year-old.' }],
  },
  {
    name: 'Gearbox Puzzle Box',
    category: 'puzzles',
    description:
      'A wooden puzzle box that opens only after a sequence of eleven sliding and turning moves, with a small secret compartment inside. Laser-cut birch plywood, 15 x 11 x 10 cm. Arrives assembled, with the solution sealed in an envelope; ages 14 and up.',
    priceCents: 4400,
    stock: 7,
    rating: 4.6,
    reviewCount: 39,
    imageCount: 4,
    reviews: [
      { author: 'Niels', rating: 5, comment: 'Two evenings without the envelope. Beautiful craft.' },
      { author: 'Sara', rating: 4, comment: 'Makes a lovely gift box afterwards.' },
    ],
  },
  {
    name: 'Brass Labyrinth Marble Maze',
    category: 'puzzles',
    description:
      'A tilting marble maze with a brass-coloured frame and three interchangeable labyrinth plates, from easy to fiendish. Measures 23 x 23 cm, steel ball included. New, ages 8 and up.',
    priceCents: 3849,
    stock: 12,
    rating: 3.9,
    reviewCount: 27,
    imageCount: 2,
    reviews: [
      { author: 'Tim', rating: 4, comment: 'The hardest plate is genuinely hard.' },
      { author: 'Eva', rating: 3, comment: 'The frame is plastic rather than metal, though it looks nice.' },
    ],
  },
  {
    name: 'Cube of Nine Interlocking Puzzle',
    category: 'puzzles',
    description:
      'A nine-piece interlocking wooden burr puzzle that assembles into a 6 cm cube. Solid beech, new. A solution sheet is included for when you give up; ages 10 and up.',
    priceCents: 999,
    stock: 40,
    rating: 3.4,
    reviewCount: 88,
    imageCount: 1,
    reviews: [
      { author: 'Omar', rating: 3, comment: 'Solved it in ten minutes, now I cannot take it apart.' },
      { author: 'Lisa', rating: 4, comment: 'Nice thing to fiddle with at my desk.' },
    ],
  },
  {
    name: 'Vaporwave Sunset 1000-Piece Puzzle',
    category: 'puzzles',
    description:
      'A 1000-piece jigsaw of a pastel sunset over a grid-lined sea and palm trees, finished size 68 x 48 cm. Long colour gradients make it a real challenge. New and sealed, ages 12 and up.',
    priceCents: 1999,
    stock: 19,
    rating: 4.2,
    reviewCount: 64,
    imageCount: 2,
    reviews: [{ author: 'Kai', rating: 4, comment: 'The gradient sky nearly broke me.' }],
  },
  {
    name: 'The Great Game Shelf 3000-Piece Puzzle',
    category: 'puzzles',
    description:
      'Our biggest puzzle: 3000 pieces showing a floor-to-ceiling shelf of board games, consoles and collectibles. Finished size 116 x 80 cm, packed in three numbered bags. New, ages 14 and up.',
    priceCents: 5499,
    stock: 6,
    rating: 4.8,
    reviewCount: 45,
    imageCount: 4,
    reviews: [
      { author: 'Ursula', rating: 5, comment: 'Numbered bags are a blessing at this size.' },
      { author: 'Rob', rating: 5, comment: 'A month of happy evenings.' },
    ],
  },
  {
    name: 'Handcrafted Walnut Jigsaw, 250 Pieces',
    category: 'puzzles',
    description:
      'A 250-piece wooden jigsaw laser-cut from walnut veneer, with 25 whimsy pieces shaped like dice, joysticks and little figures. Comes in a wooden box with a sliding lid, made in a small workshop. New, ages 12 and up.',
    priceCents: 10900,
    stock: 1,
    rating: 0,
    reviewCount: 0,
    imageCount: 4,
    reviews: [],
  },
];

const CONSOLES: SeedProduct[] = [
  {
    name: 'Vaultling Mini Console',
    category: 'consoles',
    description:
      'A palm-sized plug-and-play console with 120 built-in arcade-style games, HDMI output and two wired controllers. New in box, with a USB power cable. A quick retro fix for ages 6 and up.',
    priceCents: 4999,
    stock: 25,
    rating: 3.7,
    reviewCount: 412,
    imageCount: 3,
    reviews: [
      { author: 'Derek', rating: 4, comment: 'Good fun for the price, some games are filler.' },
      { author: 'Yuki', rating: 3, comment: 'The controller cables are short.' },
      { author: 'Anna P.', rating: 4, comment: 'Set up in two minutes.' },
    ],
  },
  {
    name: 'Aurora 16 Home Console',
    category: 'consoles',
    description:
      'A refurbished 16-bit home console from the early 1990s, with new capacitors, a cleaned cartridge slot and a de-yellowed shell. Includes one original controller, power supply and AV cable. Covered by our 90-day warranty.',
    priceCents: 14999,
    stock: 11,
    rating: 4.6,
    reviewCount: 178,
    imageCount: 4,
    reviews: [
      { author: 'Felix', rating: 5, comment: 'Looks brand new and the picture is crisp.' },
      { author: 'Maria G.', rating: 4, comment: 'Shipped fast; the controller is a little worn.' },
    ],
  },
  {
    name: 'Nebula 64 Console Bundle',
    category: 'consoles',
    description:
      'A tested 64-bit console from the late 1990s, bundled with two controllers, a memory card and a copy of Neon Drift 64. The shell is in very good condition with light yellowing on the back. AV and power cables included.',
    priceCents: 22999,
    stock: 7,
    rating: 4.7,
    reviewCount: 121,
    imageCount: 4,
    reviews: [
      { author: 'Ivan', rating: 5, comment: 'Four-player nights are back.' },
      { author: 'Clara', rating: 4, comment: 'The bundle was packed really carefully.' },
    ],
  },
  {
    name: 'Comet Handheld Color',
    category: 'consoles',
    description:
      'A colour-screen handheld from 1998, refurbished with a new glass lens and battery door. Runs for about ten hours on two AA batteries. The shell has light scratches; tested with several cartridges.',
    priceCents: 8999,
    stock: 13,
    rating: 4.3,
    reviewCount: 204,
    imageCount: 3,
    reviews: [
      { author: 'Noah', rating: 4, comment: 'The new lens makes a huge difference.' },
      { author: 'Bea', rating: 5, comment: 'Took me straight back to long car trips.' },
    ],
  },
  {
    name: 'Orbit CD Console',
    category: 'consoles',
    description:
      'A 32-bit CD console from 1995 with a top-loading drive, a refurbished laser and a new lid spring. Includes one controller, a memory card and all cables. Tested with more than twenty discs.',
    priceCents: 19900,
    stock: 0,
    rating: 4.4,
    reviewCount: 67,
    imageCount: 3,
    reviews: [{ author: 'Pavel', rating: 4, comment: 'The laser reads even my scratched discs.' }],
  },
  {
    name: 'Titan Arcade Stick Console',
    category: 'consoles',
    description:
      "An all-in-one arcade stick with 60 built-in fighting and shooting games, full-size buttons and a heavy steel base that doesn't slide around. Plugs into any TV over HDMI. New in box; add a second stick for two players.",
    priceCents: 12999,
    stock: 9,
    rating: 4.1,
    reviewCount: 96,
    imageCount: 2,
    reviews: [
      { author: 'Luis', rating: 4, comment: 'The buttons feel like a real cabinet.' },
      { author: 'Greta', rating: 4, comment: 'Heavy and sturdy, stays put on the table.' },
    ],
  },
  {
    name: 'Duo-Slot Retro Console',
    category: 'consoles',
    description:
      'A modern console that plays original cartridges in two classic 8-bit and 16-bit formats, with HDMI output and save states. New in box. Two wireless controllers included.',
    priceCents: 11949,
    stock: 16,
    rating: 3.9,
    reviewCount: 289,
    imageCount: 3,
    reviews: [
      { author: 'Jamal', rating: 4, comment: 'Played everything I threw at it.' },
      { author: 'Ute', rating: 3, comment: 'A tiny bit of input lag, fine for RPGs.' },
    ],
  },
  {
    name: 'Zephyr Portable Handheld',
    category: 'consoles',
    description:
      'A modern open-source handheld with a 3.5-inch screen, a 5000 mAh battery and an SD card slot for homebrew and your own backups. New in box. Comes with a USB-C cable and a screen protector.',
    priceCents: 7999,
    stock: 20,
    rating: 4.4,
    reviewCount: 356,
    imageCount: 3,
    reviews: [
      { author: 'Ella', rating: 5, comment: 'The screen is gorgeous.' },
      { author: 'Marek', rating: 4, comment: 'Battery lasts a train ride there and back.' },
    ],
  },
  {
    name: 'Prism 32 Limited Edition',
    category: 'consoles',
    description:
      'A numbered limited edition of the 1996 Prism 32 in a translucent violet shell. Complete in its original box with inserts, manual and both controllers. Collector condition, and we have a single unit.',
    priceCents: 34999,
    stock: 1,
    rating: 4.9,
    reviewCount: 23,
    imageCount: 4,
    reviews: [{ author: 'Shawn', rating: 5, comment: 'The box is crisp and every insert is original.' }],
  },
  {
    name: 'Aurora 16 Wireless Controller',
    category: 'consoles',
    description:
      'A 2.4 GHz wireless controller for the Aurora 16 with the original button layout, a plug-in receiver and a rechargeable battery good for about 20 hours. New in box.',
    priceCents: 2499,
    stock: 32,
    rating: 2.9,
    reviewCount: 143,
    imageCount: 1,
    reviews: [
      { author: 'Ken', rating: 2, comment: 'Occasional lag in fast games.' },
      { author: 'Olga', rating: 4, comment: 'Fine for RPGs, and no more tangled cables.' },
      { author: 'Ryo', rating: 3, comment: 'The D-pad is a bit stiff.' },
    ],
  },
  {
    name: 'Galaxy Micro Arcade Cabinet',
    category: 'consoles',
    description:
      'A 1:6 scale tabletop arcade cabinet with a 4-inch screen, a working joystick and eight built-in space shooters. Runs on batteries or USB power; new in box. A desk ornament that actually plays.',
    priceCents: 6499,
    stock: 15,
    rating: 0,
    reviewCount: 0,
    imageCount: 2,
    reviews: [],
  },
  {
    name: 'Lumen Pocket Backlit Edition',
    category: 'consoles',
    description:
      'A classic monochrome handheld rebuilt in our workshop with a backlit screen, a USB-C rechargeable battery and new buttons. Every unit runs a 24-hour test before it ships. Includes a carrying pouch.',
    priceCents: 16999,
    stock: 0,
    rating: 4.8,
    reviewCount: 74,
    imageCount: 4,
    reviews: [
      { author: 'Nico', rating: 5, comment: 'The backlight mod is flawless.' },
      { author: 'Freya', rating: 5, comment: 'Worth the wait for the restock.' },
    ],
  },
];

export const SEED_PRODUCTS: SeedProduct[] = [...RETRO_GAMES, ...BOARD_GAMES, ...PUZZLES, ...CONSOLES];
