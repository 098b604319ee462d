import { avatarDataUri } from './avatar';

/**
 * The static content of /credits and /about (spec sections 2 and 3: team member name, role, imgSrc,
 * description). These are placeholder profiles: the shop owner edits this one file.
 */
export interface TeamMember {
  name: string;
  role: string;
  imgSrc: string;
  description: string;
  education: string;
  experience: string;
  skills: string[];
  awards: string[];
}

function member(profile: Omit<TeamMember, 'imgSrc'>): TeamMember {
  return { ...profile, imgSrc: avatarDataUri(profile.name) };
}

export const team: readonly TeamMember[] = [
  member({
    name: 'Maya Okafor',
    role: 'Frontend Developer',
    description:
      'Built the storefront screens, the cart panel and the tilting product cards, and kept every page usable with a keyboard.',
    education: 'B.S. Computer Science (final year)',
    experience: 'Two summers as a web development intern at a local design studio.',
    skills: ['React', 'TypeScript', 'Tailwind CSS', 'Accessibility'],
    awards: ['Campus Hackathon 2023: Best User Experience'],
  }),
  member({
    name: 'Daniel Reyes',
    role: 'Backend Developer',
    description:
      'Designed the API, the order and payment flow and the gift card ledger so that no card is ever spent twice.',
    education: 'B.S. Computer Engineering (final year)',
    experience: 'Teaching assistant for Databases; part-time API developer for a student co-op.',
    skills: ['Node.js', 'Fastify', 'PostgreSQL', 'API design'],
    awards: ["Dean's List (four semesters)"],
  }),
  member({
    name: 'Priya Nair',
    role: 'UI/UX Designer',
    description:
      'Drew the neon arcade look, the pixel icons and the layouts, and ran the usability sessions with real shoppers.',
    education: 'B.A. Interaction Design (third year)',
    experience: 'Freelance branding for two indie game studios.',
    skills: ['Figma', 'Pixel art', 'Prototyping', 'User research'],
    awards: ['Student Design Showcase 2024: Honorable Mention'],
  }),
  member({
    name: 'Tomás Lindqvist',
    role: 'QA Engineer',
    description:
      'Wrote the end-to-end journeys from browsing to checkout and broke the shop in every way he could before our customers did.',
    education: 'B.S. Software Engineering (third year)',
    experience: 'Quality assurance intern at a mobile games publisher.',
    skills: ['Playwright', 'Vitest', 'Test planning', 'Bug triage'],
    awards: [],
  }),
  member({
    name: 'Hana Kobayashi',
    role: 'Project Manager',
    description:
      'Planned the sprints, talked with the shop owner every week and made sure the team shipped on time.',
    education: 'B.S. Information Systems (final year)',
    experience: 'Scrum master for the university robotics club.',
    skills: ['Agile planning', 'Communication', 'Roadmaps', 'Stakeholder demos'],
    awards: ['Outstanding Student Leader 2024'],
  }),
  member({
    name: 'Samir Haddad',
    role: 'Data & DevOps Engineer',
    description:
      'Set up the database migrations, the build pipeline and the load tests that keep the vault fast on launch day.',
    education: 'B.S. Data Science (third year)',
    experience: 'Cloud operations intern at a regional logistics company.',
    skills: ['Docker', 'CI pipelines', 'SQL', 'Monitoring'],
    awards: [],
  }),
];

/** The three blurbs of the team page ('Our Mission', 'Why Choose Us?', 'Our Team'). */
export const mission =
  'Pixel Vault exists to keep play alive: we hunt down retro games, consoles, board games and puzzles, check every one of them, and get them into the hands of people who will love them again.';

export const whyChooseUs =
  'Every console is tested before it ships, every game is described honestly, prices are clear in US dollars, and our small team answers your messages itself. Pay with PayPal, a Pixel Vault gift card, or both.';

export const ourTeam =
  'We are six students who turned a class project into a real shop. Between us we cover code, design, testing, planning and operations, and we are all players first.';
