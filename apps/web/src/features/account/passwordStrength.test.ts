import { describe, expect, it } from 'vitest';
import { passwordHint, passwordStrength } from './passwordStrength';

describe('passwordStrength', () => {
  it('calls anything under the shared minimum too short', () => {
    expect(passwordStrength('Ab1!xyz')).toEqual({
      score: 0,
      label: 'Too short',
      tip: 'Use at least 8 characters.',
    });
  });

  it('rates length first, then the mix of character kinds', () => {
    expect(passwordStrength('password').label).toBe('Weak');
    expect(passwordStrength('analytical1').label).toBe('Fair');
    expect(passwordStrength('Analytical1!').label).toBe('Strong');
    expect(passwordStrength('analyticalengine').label).toBe('Good');
    expect(passwordStrength('correct horse battery staple').label).toBe('Strong');
  });

  it('suggests length before variety, and nothing once strong', () => {
    expect(passwordStrength('Abc123!x').tip).toBe('Longer is stronger: try 12 characters or more.');
    expect(passwordStrength('analyticalengine').tip).toBe('Mix in capitals, numbers or symbols.');
    expect(passwordStrength('Analytical-Engine-1843').tip).toBeNull();
  });

  it('does not let one repeated character pass for strong', () => {
    expect(passwordStrength('aaaaaaaaaaaaaaaaaaaa')).toMatchObject({ label: 'Weak', score: 1 });
  });

  it('keeps the rule in the hint and adds the strength once something is typed', () => {
    expect(passwordHint('')).toBe('At least 8 characters.');
    expect(passwordHint('analytical1')).toBe(
      'At least 8 characters. Strength: Fair. Longer is stronger: try 12 characters or more.',
    );
  });
});
