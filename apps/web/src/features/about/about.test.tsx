import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import AboutPage from './AboutPage';
import CreditsPage from './CreditsPage';
import { team } from './team';

function cardOf(name: string): HTMLElement {
  return screen.getByRole('heading', { level: 2, name }).closest('article')!;
}

function detailOf(card: HTMLElement, title: string): HTMLElement {
  return within(card).getByRole('heading', { level: 3, name: title }).closest('section')!;
}

describe('team data', () => {
  it('has six members, at least one without awards', () => {
    expect(team).toHaveLength(6);
    expect(new Set(team.map((m) => m.name)).size).toBe(6);
    expect(team.some((m) => m.awards.length === 0)).toBe(true);
    expect(team.some((m) => m.awards.length > 0)).toBe(true);
  });
});

describe('CreditsPage', () => {
  it("shows 'Project Credits' and six members with photo, name, role and description", () => {
    renderWithProviders(<CreditsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Project Credits' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(6);
    for (const m of team) {
      const card = cardOf(m.name);
      const photo = within(card).getByRole('img', { name: m.name });
      expect(photo.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
      expect(within(card).getByText(m.role)).toBeInTheDocument();
      expect(within(card).getByText(m.description)).toBeInTheDocument();
    }
    expect(document.title).toBe('Project Credits — Pixel Vault');
  });
});

describe('AboutPage', () => {
  it("shows 'Meet the Team' and six member cards with education, experience, skills and awards", () => {
    renderWithProviders(<AboutPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Meet the Team' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(6);
    for (const m of team) {
      const card = cardOf(m.name);
      expect(within(card).getByRole('img', { name: m.name })).toBeInTheDocument();
      expect(within(card).getByText(m.role)).toBeInTheDocument();
      expect(detailOf(card, 'Education')).toHaveTextContent(m.education);
      expect(detailOf(card, 'Experience')).toHaveTextContent(m.experience);
      const skills = within(detailOf(card, 'Skills')).getAllByRole('listitem');
      expect(skills.map((li) => li.textContent)).toEqual(m.skills);
    }
  });

  it("shows 'None' for a member without awards and the awards of the others", () => {
    renderWithProviders(<AboutPage />);
    for (const m of team) {
      const awards = detailOf(cardOf(m.name), 'Awards');
      if (m.awards.length === 0) {
        expect(awards).toHaveTextContent(/^AwardsNone$/);
        expect(within(awards).queryByRole('listitem')).not.toBeInTheDocument();
      } else {
        expect(within(awards).queryByText('None')).not.toBeInTheDocument();
        expect(
          within(awards)
            .getAllByRole('listitem')
            .map((li) => li.textContent),
        ).toEqual(m.awards);
      }
    }
    expect(screen.getAllByText('None')).toHaveLength(team.filter((m) => m.awards.length === 0).length);
  });

  it('shows the three blurbs', () => {
    renderWithProviders(<AboutPage />);
    for (const title of ['Our Mission', 'Why Choose Us?', 'Our Team']) {
      const section = screen.getByRole('heading', { level: 2, name: title }).closest('section')!;
      expect(section.querySelector('p')?.textContent).toBeTruthy();
    }
    expect(document.title).toBe('Meet the Team — Pixel Vault');
  });
});
