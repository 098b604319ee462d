import { createAsyncThunk } from '@reduxjs/toolkit';
import { nameWithVariant, variantTitle } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { cartApi } from './api';
import { addToCart, type CartItem } from '../../app/cartSlice';

/**
 * Adds a product to the cart after refetching it for the current price and stock (spec section 4).
 * Issue 31: `variantId` is the variant chosen on the product page (left out: the default one); the line
 * takes that variant's price and stock. A product without options keeps lines without a variant, as
 * before (it has one variant, the one the server sells when none is named).
 * The caller may await `.unwrap()`; a failure is only logged to the console (spec section 8).
 */
export const addItem = createAsyncThunk<CartItem, { productId: string; qty: number; variantId?: string }>(
  'cart/addItem',
  async ({ productId, qty, variantId }, { dispatch, rejectWithValue }) => {
    const refuse = (message: string) => {
      console.error(`Could not add product ${productId} to the cart: ${message}`);
      return rejectWithValue(message);
    };
    const request = dispatch(
      cartApi.endpoints.getCartProduct.initiate(productId, { forceRefetch: true, subscribe: false }),
    );
    const result = await request;
    if (result.error || !result.data) return refuse(errorMessage(result.error));
    const product = result.data;
    const defaultVariant = product.variants[0];
    const variant = variantId ? product.variants.find((v) => v._id === variantId) : defaultVariant;
    if (!variant && variantId) return refuse(`This version of ${product.productName} is no longer sold`);
    const hasOptions = product.options.length > 0 && variant !== undefined;
    const title = hasOptions ? variantTitle(product.options, variant.options) : '';
    // The spec's fields are the default variant's (decision 007): a product without options reads them.
    const price = hasOptions ? variant.price : product.productPrice;
    const stock = hasOptions ? variant.stockQuantity : product.stockQuantity;
    if (stock < 1) return refuse(`${nameWithVariant(product.productName, title)} is out of stock`);
    const item: CartItem = {
      product: product._id,
      ...(hasOptions && { variant: variant._id }),
      ...(title && { variantTitle: title }),
      name: product.productName,
      image: product.productImage[0] ?? '',
      price,
      countInStock: stock,
      qty: Math.min(qty, stock),
    };
    dispatch(addToCart(item, defaultVariant?._id));
    return item;
  },
);
