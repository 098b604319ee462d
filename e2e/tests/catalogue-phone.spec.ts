import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, expectNoSeriousA11yViolations, productsIn } from './helpers';

/** The top and width of the first cards of the page's product grid. */
async function cardBoxes(page: Page, list: string) {
  const cards = page.getByRole('list', { name: list }).getByRole('link');
  const boxes = [];
  for (let i = 0; i < 3; i += 1) boxes.push((await cards.nth(i).boundingBox())!);
  return boxes;
}

for (const width of [360, 412]) {
  test(`@phone a category on a ${width} px phone shows two columns of cards, with no sideways scroll`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/shop/retro-games');
    const [first, second, third] = await cardBoxes(page, 'Retro Games products');
    // Issue 30: two cards side by side, the third below them.
    expect(Math.abs(first!.y - second!.y)).toBeLessThan(2);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
    expect(third!.y).toBeGreaterThan(first!.y + first!.height - 1);
    // Each card is one link, a tap target well above 44 px either way; nothing wider than the screen.
    for (const box of [first!, second!]) {
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
  });
}

test('a sold-out product says "Sold out" on its card, listed after those in stock', async ({
  page,
  request,
}) => {
  const login = await (await request.post('/api/users/login', { data: ADMIN })).json();
  const admin = { authorization: `Bearer ${login.token as string}` };
  const product = (await productsIn(request, 'board-games')).find((p) => p.stockQuantity > 0)!;
  const setStock = async (stockQuantity: number) =>
    expect(
      (
        await request.put(`/api/products/update/${product._id}`, { headers: admin, data: { stockQuantity } })
      ).ok(),
    ).toBeTruthy();
  await setStock(0);
  try {
    await page.goto('/shop/board-games');
    const cards = page.getByRole('list', { name: 'Board Games products' }).getByRole('link');
    await expect(cards.filter({ hasText: product.productName })).toContainText('Sold out');
    // Only the cards of products that are sold out say it.
    const soldOut = (await productsIn(request, 'board-games')).filter((p) => p.stockQuantity < 1);
    expect(soldOut.map((p) => p._id)).toContain(product._id);
    await expect(cards.filter({ hasText: 'Sold out' })).toHaveCount(soldOut.length);
    // ...and come after those in stock, the shopper having chosen no order.
    const texts = await cards.allInnerTexts();
    const firstSoldOut = texts.findIndex((text) => /sold out/i.test(text));
    expect(texts.slice(firstSoldOut).every((text) => /sold out/i.test(text))).toBe(true);
    expect(texts.slice(firstSoldOut)).toHaveLength(soldOut.length);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await setStock(product.stockQuantity);
  }
});
