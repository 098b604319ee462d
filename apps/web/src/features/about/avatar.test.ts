import { describe, expect, it } from 'vitest';
import { avatarDataUri, avatarGrid } from './avatar';
import { team } from './team';

describe('avatarDataUri', () => {
  it('draws the same picture for the same name', () => {
    expect(avatarDataUri('Maya Okafor')).toBe(avatarDataUri('Maya Okafor'));
  });

  it('draws a different picture for each team member', () => {
    const uris = team.map((m) => avatarDataUri(m.name));
    expect(new Set(uris).size).toBe(team.length);
  });

  it('is an SVG data URI of 64 pixels, with no network address', () => {
    const uri = avatarDataUri('Daniel Reyes');
    expect(uri.startsWith('data:image/svg+xml,')).toBe(true);
    const svg = decodeURIComponent(uri.slice('data:image/svg+xml,'.length));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 8 8"/);
    expect(svg.match(/<rect /g)).toHaveLength(64);
    expect(svg).not.toMatch(/href=/);
  });
});

describe('avatarGrid', () => {
  it('is 8x8 and mirrored left to right, with two eyes', () => {
    for (const m of team) {
      const grid = avatarGrid(m.name);
      expect(grid).toHaveLength(8);
      for (const row of grid) {
        expect(row).toHaveLength(8);
        expect(row).toEqual([...row].reverse());
      }
      expect(grid[3]![2]).toBe(grid[3]![5]);
      expect(grid[3]![2]).not.toBe(grid[3]![1]);
    }
  });
});
