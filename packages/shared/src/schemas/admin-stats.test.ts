import { describe, expect, it } from 'vitest';
import { AdminStatsQuery, OrdersExportQuery } from './admin-stats.js';

describe('admin stats and export queries (issue 15)', () => {
  it('takes 1 to 366 whole days, 30 when none is asked', () => {
    expect(AdminStatsQuery.parse({})).toEqual({ days: 30 });
    expect(AdminStatsQuery.parse({ days: '1' })).toEqual({ days: 1 });
    expect(AdminStatsQuery.parse({ days: '366' })).toEqual({ days: 366 });
    for (const days of ['0', '367', 'abc', '1.5', '', ['1', '2']]) {
      expect(AdminStatsQuery.safeParse({ days }).success, String(days)).toBe(false);
    }
  });

  it('takes export ranges of real days, in order, either end optional', () => {
    expect(OrdersExportQuery.parse({})).toEqual({});
    expect(OrdersExportQuery.parse({ from: '2024-02-29', to: '2024-02-29' })).toEqual({
      from: '2024-02-29',
      to: '2024-02-29',
    });
    for (const query of [
      { from: '2023-02-29' },
      { to: '2026-13-01' },
      { from: '26-01-01' },
      { from: '2026-01-01T00:00:00Z' },
      { from: '2026-05-02', to: '2026-05-01' },
    ]) {
      expect(OrdersExportQuery.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
  });
});
