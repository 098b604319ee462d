import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { MemberPhoto } from './MemberPhoto';
import { team } from './team';

/** /credits (spec section 2): 'Project Credits', six members with photo, name, role, description. */
export default function CreditsPage() {
  useDocumentTitle('Project Credits');

  return (
    <div className="mx-auto my-10 w-full max-w-6xl px-4">
      <h1 className="pixel-heading mb-8 text-center text-xl text-lime-400 sm:text-2xl">Project Credits</h1>
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {team.map((m) => (
          <li key={m.name}>
            <article className="flex h-full flex-col items-center gap-3 border-2 border-fuchsia-500 bg-zinc-900 p-6 text-center shadow-[6px_6px_0_0_#22d3ee]">
              <MemberPhoto src={m.imgSrc} name={m.name} />
              <h2 className="text-xl font-bold text-zinc-50">{m.name}</h2>
              <p className="text-sm font-semibold tracking-wide text-cyan-300 uppercase">{m.role}</p>
              <p className="text-zinc-300">{m.description}</p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
