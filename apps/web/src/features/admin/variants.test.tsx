import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Product } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { makeProduct, makeProductList, makeTieredProduct } from '../../test/factories';
import { renderWithProviders } from '../../test/render';
import { AddProductSection } from './AddProductSection';
import { UpdateProductSection } from './UpdateProductSection';
import { adminState, imageFile, jsonBody, stubObjectUrls, tabTo } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type User = ReturnType<typeof userEvent.setup>;

/** Adds an option through the editor: its name, then its values typed comma-separated and Enter. */
async function addOption(user: User, name: string, values: string) {
  await user.click(screen.getByRole('button', { name: 'Add option' }));
  const count = screen.getAllByLabelText(/^Option \d name$/).length;
  const nameField = screen.getByLabelText(`Option ${count} name`);
  // The new option's name field has the focus, ready to type.
  expect(nameField).toHaveFocus();
  await user.type(nameField, name);
  await user.type(screen.getByLabelText(`New values for ${name}`), `${values}{Enter}`);
}

/** The variants' titles as the table lists them, first (the default) first. */
function rowTitles() {
  const list = screen.getByRole('list', { name: 'Variants' });
  return within(list)
    .getAllByRole('listitem')
    .map((row) => (row.querySelector('label')?.textContent ?? '').replace(/^SKU for /, ''));
}

async function fillRow(
  user: User,
  title: string,
  row: { sku?: string; price: string; stock: string; credit?: string },
) {
  if (row.sku) await user.type(screen.getByLabelText(`SKU for ${title}`), row.sku);
  if (row.credit !== undefined) {
    // Issue 35: the store credit paid for one in a trade-in.
    await user.clear(screen.getByLabelText(`Trade-in credit ($) for ${title}`));
    if (row.credit) await user.type(screen.getByLabelText(`Trade-in credit ($) for ${title}`), row.credit);
  }
  await user.clear(screen.getByLabelText(`Price for ${title}`));
  await user.type(screen.getByLabelText(`Price for ${title}`), row.price);
  await user.clear(screen.getByLabelText(`Stock for ${title}`));
  await user.type(screen.getByLabelText(`Stock for ${title}`), row.stock);
}

/** The options and variants editor: its Options group and what follows it. */
const editor = () => within(screen.getByRole('group', { name: 'Options' }).parentElement!);
/** The alert shown beside the editor. */
const editorAlert = () => editor().getByRole('alert');
/** What the editor tells a screen reader it did. */
const notice = () => editor().getByRole('status');

async function fillBasics(user: User) {
  await user.type(screen.getByLabelText('Name'), 'Zelda II');
  await user.type(screen.getByLabelText('Description'), 'The Adventure of Link.');
  await user.upload(screen.getByLabelText('Images'), imageFile('zelda.png'));
}

/** Serves POST add-new, keeping the multipart body sent; `answer` may refuse it. */
function serveAddNew(answer: () => Response = () => jsonResponse({ _id: 'new' }, 201)) {
  const sent: FormData[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/products/add-new' && request.method === 'POST') {
      sent.push(await request.formData());
      return answer();
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, sent };
}

describe('Add Product: options and variants (issue 31)', () => {
  it('without options, shows Price and Stock as before and no variants table', () => {
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    expect(screen.getByLabelText('Price')).toBeInTheDocument();
    expect(screen.getByLabelText('Stock Quantity')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Variants' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate combinations' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add option' })).toBeEnabled();
  });

  it('generates the combinations, edits, reorders and removes rows, and sends options and variants as JSON text without the spec’s price and stock', async () => {
    stubObjectUrls();
    const { sent } = serveAddNew();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillBasics(user);
    // A price typed before the first option stays with the product's first variant.
    await user.type(screen.getByLabelText('Price'), '34.50');
    await addOption(user, 'Condition', 'Loose, Complete in box');
    // The table takes the place of the spec's Price and Stock.
    expect(screen.queryByLabelText('Price')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Stock Quantity')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Price for Loose')).toHaveValue(34.5);
    await addOption(user, 'Region', 'NTSC-U, PAL');
    expect(within(screen.getByRole('list', { name: 'Region values' })).getAllByRole('listitem')).toHaveLength(
      2,
    );
    expect(rowTitles()).toEqual(['Loose / NTSC-U']);

    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    expect(notice()).toHaveTextContent('Added 3 variants.');
    expect(rowTitles()).toEqual([
      'Loose / NTSC-U',
      'Loose / PAL',
      'Complete in box / NTSC-U',
      'Complete in box / PAL',
    ]);
    // The first row is the default, and says so.
    const rows = within(screen.getByRole('list', { name: 'Variants' })).getAllByRole('listitem');
    expect(within(rows[0]!).getByText('Default')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('Default')).not.toBeInTheDocument();

    await fillRow(user, 'Loose / NTSC-U', { sku: 'Z2-L-US', price: '34.50', stock: '3', credit: '14' });
    await fillRow(user, 'Loose / PAL', { price: '30', stock: '0' });
    await fillRow(user, 'Complete in box / NTSC-U', { sku: 'Z2-C-US', price: '134.50', stock: '1' });
    await fillRow(user, 'Complete in box / PAL', {
      sku: 'Z2-C-EU',
      price: '150',
      stock: '2',
      credit: '60.50',
    });
    await user.click(screen.getByRole('button', { name: 'Move up Complete in box / PAL' }));
    await user.click(screen.getByRole('button', { name: 'Remove Loose / PAL' }));
    expect(notice()).toHaveTextContent('Removed Loose / PAL.');
    expect(rowTitles()).toEqual(['Loose / NTSC-U', 'Complete in box / PAL', 'Complete in box / NTSC-U']);
    // Generating again brings the removed combination back, at the end, and keeps the rest as typed.
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    expect(rowTitles()).toEqual([
      'Loose / NTSC-U',
      'Complete in box / PAL',
      'Complete in box / NTSC-U',
      'Loose / PAL',
    ]);
    expect(screen.getByLabelText('Price for Complete in box / PAL')).toHaveValue(150);
    await user.click(screen.getByRole('button', { name: 'Remove Loose / PAL' }));

    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Product added successfully!')).toBeInTheDocument();
    const body = sent[0]!;
    expect(body.getAll('images')).toHaveLength(1);
    expect(body.get('productName')).toBe('Zelda II');
    expect(body.has('productPrice')).toBe(false);
    expect(body.has('stockQuantity')).toBe(false);
    expect(JSON.parse(body.get('options') as string)).toEqual([
      { name: 'Condition', values: ['Loose', 'Complete in box'] },
      { name: 'Region', values: ['NTSC-U', 'PAL'] },
    ]);
    expect(JSON.parse(body.get('variants') as string)).toEqual([
      {
        sku: 'Z2-L-US',
        options: { Condition: 'Loose', Region: 'NTSC-U' },
        price: 34.5,
        stockQuantity: 3,
        tradeInCredit: 14,
      },
      {
        sku: 'Z2-C-EU',
        options: { Condition: 'Complete in box', Region: 'PAL' },
        price: 150,
        stockQuantity: 2,
        tradeInCredit: 60.5,
      },
      {
        sku: 'Z2-C-US',
        options: { Condition: 'Complete in box', Region: 'NTSC-U' },
        price: 134.5,
        stockQuantity: 1,
        // Left empty: not bought.
        tradeInCredit: null,
      },
    ]);
    // Saved: the form starts again from a product without options.
    expect(screen.getByLabelText('Price')).toHaveValue(null);
    expect(screen.queryByRole('group', { name: 'Variants' })).not.toBeInTheDocument();
  });

  it('leaves an empty SKU out for the server to make one', async () => {
    stubObjectUrls();
    const { sent } = serveAddNew();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillBasics(user);
    await addOption(user, 'Edition', 'Standard');
    await fillRow(user, 'Standard', { price: '45', stock: '4' });
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(JSON.parse(sent[0]!.get('variants') as string)).toEqual([
      { options: { Edition: 'Standard' }, price: 45, stockQuantity: 4, tradeInCredit: null },
    ]);
  });

  it('says what is wrong beside the editor, naming the variant, and sends nothing', async () => {
    stubObjectUrls();
    const { mock } = serveAddNew();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await user.upload(screen.getByLabelText('Images'), imageFile('zelda.png'));
    await addOption(user, 'Condition', 'Loose, New');
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    await fillRow(user, 'Loose', { sku: 'Z2', price: '10', stock: '1' });
    await fillRow(user, 'New', { sku: 'z2', price: '-5', stock: '1.5' });
    await user.click(screen.getByRole('button', { name: 'Add Product' }));

    expect(editorAlert()).toHaveTextContent('New: Variant price must be 0 or more');
    expect(editorAlert()).toHaveTextContent('New: Variant stock must be a whole number');
    // The product's own fields keep their place at the foot of the form.
    const formAlert = screen.getAllByRole('alert').find((a) => a !== editorAlert());
    expect(formAlert).toHaveTextContent('Name is required');
    expect(formAlert).not.toHaveTextContent('Variant');

    await fillRow(user, 'New', { price: '250', stock: '1' });
    await user.type(screen.getByLabelText('Name'), 'Zelda II');
    await user.type(screen.getByLabelText('Description'), 'The Adventure of Link.');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    // The shared variantsProblem: SKUs are compared without case.
    expect(editorAlert()).toHaveTextContent('SKU z2 is there twice');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(mock).not.toHaveBeenCalled();
  });

  it('shows a SKU the server says is taken beside the variants', async () => {
    stubObjectUrls();
    serveAddNew(() =>
      jsonResponse({ message: 'SKU Z2-L is already used by Zelda II', code: 'SKU_TAKEN' }, 409),
    );
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillBasics(user);
    await addOption(user, 'Condition', 'Loose');
    await fillRow(user, 'Loose', { sku: 'Z2-L', price: '20', stock: '1' });
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(editorAlert()).toHaveTextContent('SKU Z2-L is already used by Zelda II'));
    expect(editorAlert()).toHaveClass('text-red-500');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Product added successfully!')).not.toBeInTheDocument();
  });

  it('adds values with Enter without sending the form, and removing a value removes its variants', async () => {
    const { mock } = serveAddNew();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await addOption(user, 'Condition', 'Loose, Complete in box');
    await user.type(screen.getByLabelText('New values for Condition'), 'loose, New{Enter}');
    expect(notice()).toHaveTextContent('Added New to Condition. loose is already there.');
    const values = within(screen.getByRole('list', { name: 'Condition values' })).getAllByRole('listitem');
    expect(values.map((v) => v.textContent)).toEqual(['Loose×', 'Complete in box×', 'New×']);
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    expect(rowTitles()).toEqual(['Loose', 'Complete in box', 'New']);

    await user.click(screen.getByRole('button', { name: 'Remove Complete in box from Condition' }));
    expect(rowTitles()).toEqual(['Loose', 'New']);
    expect(notice()).toHaveTextContent('Removed Complete in box from Condition and 1 variant with it.');
    expect(screen.getByLabelText('New values for Condition')).toHaveFocus();
    expect(mock).not.toHaveBeenCalled();
  });

  it('offers at most three options; removing them all brings back Price and Stock with the first variant’s', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await addOption(user, 'Condition', 'Loose, New');
    await addOption(user, 'Region', 'PAL');
    await addOption(user, 'Box', 'Yes');
    expect(screen.getByRole('button', { name: 'Add option' })).toBeDisabled();
    expect(screen.getByText('A product has at most 3 options.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    await fillRow(user, 'New / PAL / Yes', { price: '99', stock: '2' });
    await user.click(screen.getByRole('button', { name: 'Move up New / PAL / Yes' }));

    await user.click(screen.getByRole('button', { name: 'Remove option Box' }));
    expect(screen.getByRole('button', { name: 'Add option' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Remove option Region' }));
    await user.click(screen.getByRole('button', { name: 'Remove option Condition' }));
    expect(notice()).toHaveTextContent(
      'Removed the option Condition; 1 variant that then read the same went too.',
    );
    expect(screen.getByLabelText('Price')).toHaveValue(99);
    expect(screen.getByLabelText('Stock Quantity')).toHaveValue(2);
  });

  it('adds the values left typed in their field when the focus moves on, e.g. to Generate', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await user.click(screen.getByRole('button', { name: 'Add option' }));
    await user.type(screen.getByLabelText('Option 1 name'), 'Region');
    await user.type(screen.getByLabelText('New values for Region'), 'NTSC-U, PAL');
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    expect(rowTitles()).toEqual(['NTSC-U', 'PAL']);
    expect(screen.getByLabelText('New values for Region')).toHaveValue('');
  });

  it('says why it cannot generate while an option has no values', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await user.click(screen.getByRole('button', { name: 'Add option' }));
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Give every option at least one value first');
    expect(rowTitles()).toEqual(['Variant 1']);
  });

  it('reorders by keyboard, the focus staying with the row moved', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await addOption(user, 'Condition', 'Loose, Complete in box, New');
    await user.click(screen.getByRole('button', { name: 'Generate combinations' }));
    const up = screen.getByRole('button', { name: 'Move up New' });
    await tabTo(user, up, 60);
    await user.keyboard('{Enter}');
    expect(rowTitles()).toEqual(['Loose', 'New', 'Complete in box']);
    expect(screen.getByRole('button', { name: 'Move up New' })).toHaveFocus();
    await user.keyboard(' ');
    expect(rowTitles()).toEqual(['New', 'Loose', 'Complete in box']);
    expect(notice()).toHaveTextContent('New is now number 1, the default.');
    // At the top Move up is disabled: the focus goes to Move down of the same row.
    expect(screen.getByRole('button', { name: 'Move up New' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move down New' })).toHaveFocus();
    // The last row cannot be removed.
    await user.click(screen.getByRole('button', { name: 'Remove Loose' }));
    await user.click(screen.getByRole('button', { name: 'Remove Complete in box' }));
    expect(screen.getByRole('button', { name: 'Remove New' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Generate combinations' })).toHaveFocus();
  });
});

/** The shop's product list for the search, GET of one product, and PUT updates kept as sent. */
function serveUpdates(product: Product, answer?: () => Response) {
  const updates: unknown[] = [];
  stubFetch(async (request, url) => {
    if (url.pathname === '/api/products') return jsonResponse(makeProductList([product]));
    if (url.pathname === `/api/products/update/${product._id}` && request.method === 'PUT') {
      updates.push(await jsonBody(request));
      return answer ? answer() : jsonResponse(product);
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return updates;
}

function zelda() {
  return makeTieredProduct(
    [
      {
        options: { Condition: 'Loose', Region: 'NTSC-U' },
        price: 34.5,
        stockQuantity: 3,
        sku: 'Z2-L-US',
        tradeInCredit: 12,
      },
      {
        options: { Condition: 'Complete in box', Region: 'PAL' },
        price: 150,
        stockQuantity: 1,
        sku: 'Z2-C-EU',
      },
      { options: { Condition: 'Loose', Region: 'PAL' }, price: 30, stockQuantity: 0, sku: 'Z2-L-EU' },
    ],
    { productName: 'Zelda II' },
  );
}

async function openEditor(user: User, name: string) {
  await user.click(await screen.findByRole('button', { name: `Edit ${name}` }));
  return screen.getByRole('dialog', { name: `Edit ${name}` });
}

describe('Update Product: options and variants (issue 31)', () => {
  it('loads the options and variants with their SKUs, and sends the whole list back with the ids, a removed one left out', async () => {
    const product = zelda();
    const [looseUs, cibPal, loosePal] = product.variants;
    const updates = serveUpdates(product);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Zelda II');
    expect(within(dialog).queryByLabelText('Price')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Option 1 name')).toHaveValue('Condition');
    expect(within(dialog).getByLabelText('Option 2 name')).toHaveValue('Region');
    expect(rowTitles()).toEqual(['Loose / NTSC-U', 'Complete in box / PAL', 'Loose / PAL']);
    expect(within(dialog).getByLabelText('SKU for Complete in box / PAL')).toHaveValue('Z2-C-EU');
    expect(within(dialog).getByLabelText('Price for Complete in box / PAL')).toHaveValue(150);
    expect(within(dialog).getByLabelText('Stock for Loose / PAL')).toHaveValue(0);
    // Issue 35: each variant's trade-in credit, empty where the shop does not buy it.
    expect(within(dialog).getByLabelText('Trade-in credit ($) for Loose / NTSC-U')).toHaveValue(12);
    expect(within(dialog).getByLabelText('Trade-in credit ($) for Complete in box / PAL')).toHaveValue(null);

    await fillRow(user, 'Complete in box / PAL', { price: '140', stock: '2' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Loose / PAL' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move up Complete in box / PAL' }));
    await user.type(within(dialog).getByLabelText('New values for Condition'), 'New{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Generate combinations' }));
    expect(rowTitles()).toEqual([
      'Complete in box / PAL',
      'Loose / NTSC-U',
      'Loose / PAL',
      'Complete in box / NTSC-U',
      'New / NTSC-U',
      'New / PAL',
    ]);
    for (const title of ['Loose / PAL', 'Complete in box / NTSC-U', 'New / PAL']) {
      await user.click(within(dialog).getByRole('button', { name: `Remove ${title}` }));
    }
    await fillRow(user, 'New / NTSC-U', { sku: 'Z2-N-US', price: '300', stock: '1' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([
      {
        productName: 'Zelda II',
        productDescription: product.productDescription,
        options: [
          { name: 'Condition', values: ['Loose', 'Complete in box', 'New'] },
          { name: 'Region', values: ['NTSC-U', 'PAL'] },
        ],
        variants: [
          {
            _id: cibPal!._id,
            sku: 'Z2-C-EU',
            options: cibPal!.options,
            price: 140,
            stockQuantity: 2,
            tradeInCredit: null,
          },
          {
            _id: looseUs!._id,
            sku: 'Z2-L-US',
            options: looseUs!.options,
            price: 34.5,
            stockQuantity: 3,
            tradeInCredit: 12,
          },
          {
            sku: 'Z2-N-US',
            options: { Condition: 'New', Region: 'NTSC-U' },
            price: 300,
            stockQuantity: 1,
            tradeInCredit: null,
          },
        ],
      },
    ]);
    // The Loose / PAL variant was removed in the form: it is simply not sent.
    expect(JSON.stringify(updates)).not.toContain(loosePal!._id);
  });

  it('gives a product without options its first option, its one variant (and id) becoming the first value', async () => {
    const game = makeProduct({ productName: 'Catan', productPrice: 45, stockQuantity: 6 });
    const updates = serveUpdates(game);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Catan');
    expect(within(dialog).getByLabelText('Price')).toHaveValue(45);
    await addOption(user, 'Edition', 'Standard, Deluxe');
    await user.click(within(dialog).getByRole('button', { name: 'Generate combinations' }));
    await fillRow(user, 'Deluxe', { price: '80', stock: '2' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toEqual({
      productName: 'Catan',
      productDescription: game.productDescription,
      options: [{ name: 'Edition', values: ['Standard', 'Deluxe'] }],
      variants: [
        {
          _id: game.variants[0]!._id,
          sku: game.variants[0]!.sku,
          options: { Edition: 'Standard' },
          price: 45,
          stockQuantity: 6,
          tradeInCredit: null,
        },
        { options: { Edition: 'Deluxe' }, price: 80, stockQuantity: 2, tradeInCredit: null },
      ],
    });
  });

  it('taking every option away sends options [] and the one variant left, with the Price and Stock shown', async () => {
    const product = zelda();
    const updates = serveUpdates(product);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Zelda II');
    await user.click(within(dialog).getByRole('button', { name: 'Remove option Region' }));
    // Loose / PAL became a second Loose: the first of them stays.
    expect(rowTitles()).toEqual(['Loose', 'Complete in box']);
    await user.click(within(dialog).getByRole('button', { name: 'Remove option Condition' }));
    const price = within(dialog).getByLabelText('Price');
    expect(price).toHaveValue(34.5);
    expect(within(dialog).getByLabelText('Stock Quantity')).toHaveValue(3);
    await user.clear(price);
    await user.type(price, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(updates).toHaveLength(1));
    const first = product.variants[0]!;
    expect(updates[0]).toEqual({
      productName: 'Zelda II',
      productPrice: 30,
      stockQuantity: 3,
      productDescription: product.productDescription,
      options: [],
      // Issue 35: its trade-in credit goes with it.
      variants: [
        { _id: first._id, sku: first.sku, options: {}, price: 30, stockQuantity: 3, tradeInCredit: 12 },
      ],
    });
  });

  it('keeps the modal open with the server’s message when the change is refused', async () => {
    const product = zelda();
    const updates = serveUpdates(product, () =>
      jsonResponse({ message: 'Variant 2: "Boxed" is not one of Condition\'s values' }, 400),
    );
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Zelda II');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Variant 2: "Boxed" is not one of Condition\'s values',
    );
    expect(updates).toHaveLength(1);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('shows a SKU the server says is taken beside the variants, the modal staying open', async () => {
    const product = zelda();
    serveUpdates(product, () =>
      jsonResponse({ message: 'SKU MARIO-1 is already used by Super Mario Bros.', code: 'SKU_TAKEN' }, 409),
    );
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Zelda II');
    await user.clear(within(dialog).getByLabelText('SKU for Loose / PAL'));
    await user.type(within(dialog).getByLabelText('SKU for Loose / PAL'), 'MARIO-1');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(editorAlert()).toHaveTextContent('SKU MARIO-1 is already used by Super Mario Bros.'),
    );
    expect(within(dialog).getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("checks every variant's fields before sending, naming the variant", async () => {
    const product = zelda();
    const updates = serveUpdates(product);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Zelda II');
    await user.clear(within(dialog).getByLabelText('Price for Loose / PAL'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(editorAlert()).toHaveTextContent('Loose / PAL: Variant price is required');
    expect(updates).toEqual([]);
  });
});

describe('Trade-in credit (issue 35)', () => {
  it('asks a product without options for its trade-in credit, labelled and explained, and sends it with its one variant', async () => {
    stubObjectUrls();
    const { sent } = serveAddNew();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillBasics(user);
    await user.type(screen.getByLabelText('Price'), '12');
    await user.type(screen.getByLabelText('Stock Quantity'), '4');
    const credit = screen.getByRole('spinbutton', { name: 'Trade-in credit ($)' });
    expect(credit).toHaveAccessibleDescription(/Leave it empty if the shop does not buy it/);
    // Reached by keyboard, right after the stock.
    await tabTo(user, screen.getByLabelText('Stock Quantity'));
    await user.tab();
    expect(credit).toHaveFocus();

    // A credit below 0 is said beside the editor, and nothing is sent.
    await user.type(credit, '-1');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(editorAlert()).toHaveTextContent('Trade-in credit must be 0 or more');
    expect(sent).toHaveLength(0);

    await user.clear(credit);
    await user.type(credit, '4.50');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const body = sent[0]!;
    expect(body.get('productPrice')).toBe('12');
    expect(body.get('stockQuantity')).toBe('4');
    expect(JSON.parse(body.get('variants') as string)).toEqual([
      { options: {}, price: 12, stockQuantity: 4, tradeInCredit: 4.5 },
    ]);
  });

  it('sends a product without a credit the way it always did', async () => {
    stubObjectUrls();
    const { sent } = serveAddNew();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillBasics(user);
    await user.type(screen.getByLabelText('Price'), '12');
    await user.type(screen.getByLabelText('Stock Quantity'), '4');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.has('variants')).toBe(false);
  });

  it("shows a product's credit in Update Product and sends it cleared, with the variant's id", async () => {
    const game = makeProduct({ productName: 'Tetris', productPrice: 12, stockQuantity: 4 });
    game.variants[0]!.tradeInCredit = 4.5;
    const updates = serveUpdates(game);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Tetris');
    const credit = within(dialog).getByLabelText('Trade-in credit ($)');
    expect(credit).toHaveValue(4.5);
    await user.clear(credit);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toMatchObject({
      productPrice: 12,
      stockQuantity: 4,
      variants: [
        { _id: game.variants[0]!._id, options: {}, price: 12, stockQuantity: 4, tradeInCredit: null },
      ],
    });
  });

  it("names each variant's credit field for a screen reader and checks it, naming the variant", async () => {
    const product = zelda();
    const updates = serveUpdates(product);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    const dialog = await openEditor(user, 'Zelda II');
    const field = within(dialog).getByRole('spinbutton', { name: 'Trade-in credit ($) for Loose / PAL' });
    expect(field).toHaveValue(null);
    await fillRow(user, 'Complete in box / PAL', { price: '150', stock: '1', credit: '-3' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(editorAlert()).toHaveTextContent('Complete in box / PAL: Trade-in credit must be 0 or more');
    expect(updates).toEqual([]);
  });
});
