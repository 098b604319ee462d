import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { MemberPhoto } from './MemberPhoto';
import { mission, ourTeam, team, whyChooseUs } from './team';

function ListOrNone({ items }: { items: readonly string[] }) {
  if (items.length === 0) return <p className="text-zinc-400">None</p>;
  return (
    <ul className="list-inside list-['▸_'] text-zinc-200">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

function Detail({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="text-xs font-bold tracking-widest text-fuchsia-300 uppercase">{title}</h3>
      <div className="mt-1">{children}</div>
    </section>
  );
}

const blurbs = [
  { title: 'Our Mission', text: mission },
  { title: 'Why Choose Us?', text: whyChooseUs },
  { title: 'Our Team', text: ourTeam },
];

/** Team page (spec section 2, served at /about): six member cards and three blurbs. */
export default function AboutPage() {
  useDocumentTitle('Meet the Team');

  return (
    <div className="mx-auto my-10 w-full max-w-6xl px-4">
      <h1 className="pixel-heading mb-8 text-center text-xl text-lime-400 sm:text-2xl">Meet the Team</h1>
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {team.map((m) => (
          <li key={m.name}>
            <article className="flex h-full flex-col gap-4 border-2 border-fuchsia-500 bg-zinc-900 p-6 shadow-[6px_6px_0_0_#22d3ee]">
              <header className="flex items-center gap-4">
                <MemberPhoto src={m.imgSrc} name={m.name} />
                <div>
                  <h2 className="text-lg font-bold text-zinc-50">{m.name}</h2>
                  <p className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">{m.role}</p>
                </div>
              </header>
              <Detail title="Education">
                <p className="text-zinc-200">{m.education}</p>
              </Detail>
              <Detail title="Experience">
                <p className="text-zinc-200">{m.experience}</p>
              </Detail>
              <Detail title="Skills">
                <ListOrNone items={m.skills} />
              </Detail>
              <Detail title="Awards">
                <ListOrNone items={m.awards} />
              </Detail>
            </article>
          </li>
        ))}
      </ul>
      <div className="mt-12 grid grid-cols-1 gap-6 md:grid-cols-3">
        {blurbs.map((b) => (
          <section key={b.title} className="border-2 border-lime-400 bg-zinc-900 p-6">
            <h2 className="pixel-heading mb-3 text-sm text-lime-400">{b.title}</h2>
            <p className="text-zinc-200">{b.text}</p>
          </section>
        ))}
      </div>
    </div>
  );
}
